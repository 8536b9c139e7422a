import { describe, expect, it } from 'vitest';
import type { CostAnalysis } from '../api/types';
import { groupSeries } from './costs';
import { back, drill, exploreQuery, exploreSearch, filterText, parseExplore, viewSearch, viewSpec, without, type Explore } from './explore';

const now = new Date('2026-03-15T10:00:00Z');
const start = (q: string): Explore => parseExplore(new URLSearchParams(q), now);

describe('drill-down', () => {
  it('goes from the total to a provider, a service and a resource, and back', () => {
    let e = start('days=7');
    expect(e.groupBy).toBe('provider');
    e = drill(e, 'provider', 'aws');
    expect(e.filters).toEqual([{ param: 'provider', value: 'aws' }]);
    expect(e.groupBy).toBe('service');
    e = drill(e, 'service', 'Amazon EC2');
    expect(e.groupBy).toBe('resource');
    e = drill(e, 'resource', 'i-0abc');
    expect(e.filters.map((f) => f.param)).toEqual(['provider', 'service', 'resource']);
    expect(exploreSearch(e, now)).toBe('?days=7&group_by=resource&provider=aws&service=Amazon+EC2&resource=i-0abc');
    // The URL round-trips, and the query asks for exactly this.
    const again = start(exploreSearch(e, now).slice(1));
    expect(again).toEqual(e);
    expect(exploreQuery(again)).toEqual({
      days: 7,
      granularity: 'day',
      metric: undefined,
      group_by: 'resource',
      filters: { provider: ['aws'], service: ['Amazon EC2'], resource: ['i-0abc'] },
    });
    // Back to the service crumb: the resources filter goes, grouping by resource again.
    const toService = back(e, 2);
    expect(toService.filters.length).toBe(2);
    expect(toService.groupBy).toBe('resource');
    // Back to "All costs": no filter, grouped by what the first crumb picked from.
    const all = back(e, 0);
    expect(all.filters).toEqual([]);
    expect(all.groupBy).toBe('provider');
  });

  it('drills into a tag value and untagged, and into accounts', () => {
    let e = drill(start('group_by=tag:team'), 'tag:team', '(none)');
    expect(e.filters).toEqual([{ param: 'tag', value: 'team:(none)' }]);
    expect(e.groupBy).toBe('service');
    expect(filterText(e.filters[0])).toBe('Tag team: untagged');
    expect(back(e, 0).groupBy).toBe('tag:team');
    e = drill(start('group_by=billing_account'), 'billing_account', '123');
    expect(e.groupBy).toBe('sub_account');
    expect(filterText(e.filters[0], { '123': 'Production' })).toBe('Billing account: Production');
    // Drilling twice into the same group adds no second filter.
    expect(drill(e, 'billing_account', '123').filters.length).toBe(1);
    expect(without(e, 0).filters).toEqual([]);
  });

  it('drills from a Kubernetes cluster to a pod and back', () => {
    let e = drill(start('group_by=cluster'), 'cluster', 'prod');
    expect(e.groupBy).toBe('namespace');
    e = drill(e, 'namespace', 'shop');
    expect(e.groupBy).toBe('workload');
    e = drill(e, 'workload', 'checkout');
    expect(e.groupBy).toBe('pod');
    expect(exploreSearch(e, now)).toBe('?group_by=pod&cluster=prod&namespace=shop&workload=checkout');
    expect(filterText(e.filters[1])).toBe('Kubernetes namespace: shop');
    expect(back(e, 1)).toEqual({ ...start('group_by=namespace&cluster=prod'), groupBy: 'namespace' });
    expect(back(e, 0).groupBy).toBe('cluster');
  });

  it('ignores unknown parameters and groupings', () => {
    const e = start('group_by=colour&colour=red&region=&provider=gcp');
    expect(e.groupBy).toBe('provider');
    expect(e.filters).toEqual([{ param: 'provider', value: 'gcp' }]);
  });

  it('saves a state as a view and opens it again', () => {
    const e = drill(start('period=last_month&granularity=week&metric=effective'), 'region', 'us-east-1');
    const spec = viewSpec(e);
    expect(spec).toMatchObject({ period: 'last_month', granularity: 'week', metric: 'effective', group_by: 'service', filters: { region: ['us-east-1'] } });
    expect(start(viewSearch(spec).slice(2))).toEqual(e);
  });
});

describe('groupSeries', () => {
  it('stacks the top groups and the rest to the total', () => {
    const a = {
      summary: {
        series: [
          { date: '2026-03-01', cost: 10 },
          { date: '2026-03-02', cost: 20 },
        ],
        groups: [
          { key: 'aws', label: 'AWS', cost: 18, previous_cost: 0, series: [{ date: '2026-03-01', cost: 6 }, { date: '2026-03-02', cost: 12 }] },
          { key: 'gcp', label: 'Google Cloud', cost: 5, previous_cost: 0, series: [{ date: '2026-03-02', cost: 5 }] },
          { key: 'oci', label: 'Oracle Cloud', cost: 7, previous_cost: 0 },
        ],
      },
    } as unknown as CostAnalysis;
    const s = groupSeries(a);
    expect(s.dates).toEqual(['2026-03-01', '2026-03-02']);
    expect(s.series.map((x) => [x.label, x.values])).toEqual([
      ['AWS', [6, 12]],
      ['Google Cloud', [0, 5]],
      ['Other', [4, 3]],
    ]);
  });
});
