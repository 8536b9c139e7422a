import { describe, expect, it } from 'vitest';
import { tagHints } from './tagHints';

describe('tagHints', () => {
  const known = { team: ['web', 'data'], env: ['prod'] };
  it('names an unknown key with the keys there are', () => {
    expect(tagHints(['tem:web'], known)).toEqual(['No cost line of this period has the tag key “tem”. Its tag keys are: env, team.']);
  });
  it('names an unknown value with the values there are', () => {
    expect(tagHints(['team:mobile'], known)).toEqual(['The tag “team” never has the value “mobile” in this period. Its values are: data, web.']);
  });
  it('says nothing of filters that match, or of untagged', () => {
    expect(tagHints(['team:web', 'env:(none)'], known)).toEqual([]);
  });
  it('a period with no tags at all', () => {
    expect(tagHints(['team:web'], {})).toEqual(['No cost line of this period has any tag.']);
  });
});
