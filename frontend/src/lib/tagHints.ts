// Hints for tag filters that match nothing: the CLI's unknown-tag hint in
// the dashboard's words.
import { NO_VALUE } from './explore';

const LIST_MAX = 8;

function some(xs: string[]): string {
  const sorted = [...xs].sort((a, b) => a.localeCompare(b));
  const shown = sorted.slice(0, LIST_MAX).join(', ');
  return sorted.length > LIST_MAX ? `${shown} and ${sorted.length - LIST_MAX} more` : shown;
}

/**
 * tagHints explains each tag filter (key:value) that no cost line of the
 * period matches, given the period's tag keys and their values.
 */
export function tagHints(filters: string[], known: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const f of filters) {
    const i = f.indexOf(':');
    const key = i < 0 ? f : f.slice(0, i);
    const value = i < 0 ? '' : f.slice(i + 1);
    const values = known[key];
    if (!values) {
      const keys = Object.keys(known);
      out.push(keys.length ? `No cost line of this period has the tag key “${key}”. Its tag keys are: ${some(keys)}.` : `No cost line of this period has any tag.`);
    } else if (value && value !== NO_VALUE && !values.includes(value)) {
      out.push(`The tag “${key}” never has the value “${value}” in this period. Its values are: ${some(values)}.`);
    }
  }
  return out;
}
