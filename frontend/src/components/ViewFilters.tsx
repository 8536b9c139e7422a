// The filter controls the Overview and the Forecast share: a tag key to
// group by, and a form adding a filter on any dimension or tag with the
// values the data has on offer.
import { useState } from 'preact/hooks';
import { api, type CostRequest } from '../api/client';
import { GROUPINGS, NO_VALUE, type Filter } from '../lib/explore';
import { useApi } from '../lib/useApi';

/** TagKeyPicker offers the tag keys the period's data has, to group by one. */
export function TagKeyPicker({ tagQuery, onPick, onCancel }: { tagQuery: CostRequest; onPick: (key: string) => void; onCancel: () => void }) {
  const tags = useApi<Record<string, string[]>>(() => api.TagValues(tagQuery), [JSON.stringify(tagQuery)], { live: false });
  const keys = Object.keys(tags.data ?? {}).sort((a, b) => a.localeCompare(b));
  return (
    <label>
      Tag key{' '}
      <select
        class="input"
        data-testid="group-by-tag"
        value=""
        onChange={(ev) => {
          const k = (ev.target as HTMLSelectElement).value;
          if (k) onPick(k);
          else onCancel();
        }}
      >
        <option value="">{tags.loading && !tags.data ? 'Loading tag keys…' : keys.length ? 'Choose a tag key' : 'No tags in this period'}</option>
        {keys.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * AddFilter adds a filter on any dimension or tag. tagQuery is the period
 * whose tag keys and values are offered; offered gives the values on
 * screen for a dimension (the groups when grouped by it).
 */
export function AddFilter({ tagQuery, offered, onAdd }: { tagQuery: CostRequest; offered: (dim: string) => string[]; onAdd: (f: Filter) => void }) {
  const [open, setOpen] = useState(false);
  const [dim, setDim] = useState('provider');
  const [tagKey, setTagKey] = useState('');
  const [value, setValue] = useState('');
  const tags = useApi<Record<string, string[]>>(
    () => (open ? api.TagValues(tagQuery) : Promise.resolve({})),
    [open, JSON.stringify(tagQuery)],
    { live: false },
  );
  const tagKeys = Object.keys(tags.data ?? {}).sort((a, b) => a.localeCompare(b));
  const isTag = dim === 'tag';
  const values = isTag ? (tags.data?.[tagKey] ?? []) : offered(dim);
  if (!open) {
    return (
      <button type="button" class="btn btn-small" onClick={() => setOpen(true)} data-testid="add-filter">
        + Filter
      </button>
    );
  }
  const submit = (ev: Event) => {
    ev.preventDefault();
    const v = value.trim() || (isTag ? NO_VALUE : '');
    if (!v || (isTag && !tagKey)) return;
    setOpen(false);
    setValue('');
    onAdd(isTag ? { param: 'tag', value: `${tagKey}:${v}` } : { param: dim, value: v });
  };
  return (
    <form class="add-filter" onSubmit={submit} data-testid="filter-form">
      <select class="input" aria-label="Filter on" value={dim} onChange={(ev) => setDim((ev.target as HTMLSelectElement).value)}>
        {GROUPINGS.map((g) => (
          <option value={g.value} key={g.value}>
            {g.label}
          </option>
        ))}
        <option value="account">Account (billing or sub-account)</option>
        <option value="tag">Tag</option>
      </select>
      {isTag && (
        <select class="input" aria-label="Tag key" value={tagKey} onChange={(ev) => setTagKey((ev.target as HTMLSelectElement).value)}>
          <option value="">{tags.loading ? 'Loading tag keys…' : 'Tag key…'}</option>
          {tagKeys.map((k) => (
            <option value={k} key={k}>
              {k}
            </option>
          ))}
        </select>
      )}
      {isTag ? (
        <select class="input" aria-label="Tag value" value={value} onChange={(ev) => setValue((ev.target as HTMLSelectElement).value)}>
          <option value={NO_VALUE}>Untagged</option>
          {values.map((v) => (
            <option value={v} key={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <>
          <input class="input" aria-label="Value" list="filter-values" placeholder="value" value={value} onInput={(ev) => setValue((ev.target as HTMLInputElement).value)} />
          <datalist id="filter-values">
            {values.map((v) => (
              <option value={v} key={v} />
            ))}
          </datalist>
        </>
      )}
      <button type="submit" class="btn btn-small">
        Add
      </button>
      <button type="button" class="btn-link" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
