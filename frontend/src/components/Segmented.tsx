// A group of toggle buttons (radio semantics, arrow keys work natively via Tab + Space/Enter).

export interface SegmentedOption<V extends string> {
  value: V;
  label: string;
}

export function Segmented<V extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: SegmentedOption<V>[];
  value: V;
  onChange: (v: V) => void;
}) {
  return (
    <div class="segmented" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          class={o.value === value ? 'active' : ''}
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
