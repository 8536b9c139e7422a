// DemoLabel says on a page that what it shows includes demo data: the
// providers still on source demo whose data is shown (those left out
// beside real data, demo_hidden, are not). Pages that show costs put it in
// their header, so simulated numbers are never read as one's own.
import { api, type ProviderDetail } from '../api/client';
import { providerName } from '../lib/format';
import { useApi } from '../lib/useApi';

/** demoShown lists the enabled providers whose demo data answers show. */
export function demoShown(details: ProviderDetail[] | null | undefined): string[] {
  return (details ?? []).filter((d) => d.enabled && d.source === 'demo' && !d.demo_hidden).map((d) => d.provider);
}

export function DemoLabel() {
  const state = useApi(() => api.ProviderDetails(), []);
  const demo = demoShown(state.data);
  if (demo.length === 0) return null;
  const names = demo.map(providerName).join(', ');
  return (
    <span
      class="demo-label"
      data-testid="demo-label"
      title={`${names}: simulated demo data, not your own costs. Import an export or connect the cloud (Status) to see real data.`}
    >
      Demo data: {names}
    </span>
  );
}
