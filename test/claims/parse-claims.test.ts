/**
 * Table tests of the claim placeholders of a definition's query (`{{claim:NAME}}`): where they are found, how the
 * query is split at them, what the catalog probe runs, and which queries are broken definitions. Pure.
 */
import { parseClaims, probeQuery } from '../../lib/definitions/parse-claims';
import type { ClaimPlaceholder, ClaimQuery, EngineName } from '../../lib/resource';
import { engineNames, serviceErrorOf } from '../support/resources';

const file = '/defs/Mine.xml';
const both = engineNames;

const v = (name: string): ClaimPlaceholder => ({ name, use: 'value' });
const condition = (name: string): ClaimPlaceholder => ({ name, use: 'condition' });

const found: { name: string; query: string; engines?: readonly EngineName[]; parsed: ClaimQuery | undefined }[] = [
  { name: 'no placeholder: the query is left as it is', query: 'select id from t', parsed: undefined },
  {
    name: 'braces inside a string are not a placeholder',
    query: "select id from t where tags = '{{1,2}}'",
    parsed: undefined,
  },
  {
    name: 'one placeholder',
    query: 'select id from t where owner = {{claim:sub}}',
    parsed: { parts: ['select id from t where owner = ', ''], claims: [v('sub')] },
  },
  {
    name: 'several, one of them twice, with names holding : . - _',
    query:
      'select id from t where a = {{claim:cognito:username}} and b = {{claim:org.tenant_id}} or c = {{claim:x-y}} or d = {{claim:cognito:username}}',
    parsed: {
      parts: ['select id from t where a = ', ' and b = ', ' or c = ', ' or d = ', ''],
      claims: [v('cognito:username'), v('org.tenant_id'), v('x-y'), v('cognito:username')],
    },
  },
  {
    name: 'a placeholder next to parentheses and operators',
    query: 'select id from t where (owner={{claim:sub}})',
    parsed: { parts: ['select id from t where (owner=', ')'], claims: [v('sub')] },
  },
  {
    name: 'placeholders in comments are comments',
    query: 'select id from t /* {{claim:a}} */ where owner = {{claim:sub}} -- {{claim:b}}\n and 1 = 1',
    parsed: {
      parts: ['select id from t /* {{claim:a}} */ where owner = ', ' -- {{claim:b}}\n and 1 = 1'],
      claims: [v('sub')],
    },
  },
  {
    name: 'a doubled quote stays inside the string',
    query: "select id from t where note = 'it''s' and owner = {{claim:sub}}",
    parsed: { parts: ["select id from t where note = 'it''s' and owner = ", ''], claims: [v('sub')] },
  },
  {
    name: 'MySQL: a backslash escapes a quote; # starts a comment',
    query: "select id from t where note = 'it\\'s' and owner = {{claim:sub}} # {{claim:c}}",
    engines: ['mysql'],
    parsed: { parts: ["select id from t where note = 'it\\'s' and owner = ", ' # {{claim:c}}'], claims: [v('sub')] },
  },
  {
    name: 'PostgreSQL: quoted names and E strings',
    query: "select \"a{{b}}\" from t where note = E'x\\'y' and owner = {{claim:sub}}",
    engines: ['postgres'],
    parsed: { parts: ["select \"a{{b}}\" from t where note = E'x\\'y' and owner = ", ''], claims: [v('sub')] },
  },
  {
    name: 'a prefix placeholder',
    query: 'select id from t where owner like {{claim-prefix:sub}}',
    parsed: { parts: ['select id from t where owner like ', ''], claims: [{ name: 'sub', use: 'prefix' }] },
  },
];

/** Where a `{{claim:x}}` is a whole condition (a boolean claim only) and where it is a value. */
const uses: { query: string; use: ClaimPlaceholder['use'] }[] = [
  { query: 'select id from t where {{claim:x}} or owner = 1', use: 'condition' },
  { query: 'select id from t where owner = 1 or {{claim:x}}', use: 'condition' },
  { query: 'select id from t where a = 1 and ({{claim:x}} or b = 2)', use: 'condition' },
  { query: 'select id from t where not {{claim:x}} and b = 2', use: 'condition' },
  { query: 'select id from t where (({{claim:x}}))', use: 'condition' },
  { query: 'select id from t join u on {{claim:x}} and u.id = t.id', use: 'condition' },
  { query: 'select id, case when {{claim:x}} then 1 else 0 end as c from t', use: 'condition' },
  { query: 'select id from t where {{claim:x}} = true', use: 'condition' },
  { query: 'select id from t where false <> {{claim:x}}', use: 'condition' },
  { query: 'select id from t where {{claim:x}} is not true or b = 2', use: 'condition' },
  { query: 'select id from t where {{claim:x}} -- a comment\n or b = 2', use: 'condition' },
  { query: 'select id from t where owner = {{claim:x}}', use: 'value' },
  { query: 'select id from t where {{claim:x}} = owner', use: 'value' },
  { query: 'select id from t where owner in ({{claim:x}}, 1)', use: 'value' },
  { query: 'select id from t where owner = coalesce({{claim:x}}) or b = 1', use: 'value' },
  { query: 'select id from t where n between 1 and {{claim:x}}', use: 'value' },
  { query: 'select id from t where n between 1 and {{claim:x}} and b = 2', use: 'value' },
  { query: 'select id from t where owner like {{claim:x}}', use: 'value' },
  { query: 'select id, {{claim:x}} as me from t', use: 'value' },
  { query: 'select id from t where a = 1 and {{claim:x}} || b = c', use: 'value' },
];

const broken: { name: string; query: string; engines?: readonly EngineName[]; message: string }[] = [
  {
    name: 'a placeholder inside a string',
    query: "select id from t where owner = '{{claim:sub}}'",
    message:
      "Definition /defs/Mine.xml is invalid: the claim placeholder {{claim:sub}} stands inside quotes ('{{claim:sub}}'); write it without quotes, as in owner = {{claim:sub}}: the claim's value is bound as one whole value, never put into the text",
  },
  {
    name: 'a placeholder inside a LIKE pattern',
    query: "select id from t where owner like '%{{claim:sub}}%'",
    message: "stands inside quotes ('%{{claim:sub}}%')",
  },
  {
    name: 'a placeholder inside a quoted name',
    query: 'select id from t where "{{claim:sub}}" = 1',
    message: 'the claim placeholder {{claim:sub}} stands inside quotes ("{{claim:sub}}")',
  },
  {
    name: 'MySQL: inside backquotes',
    query: 'select id from t where `{{claim:sub}}` = 1',
    engines: ['mysql'],
    message: 'stands inside quotes (`{{claim:sub}}`)',
  },
  {
    name: 'PostgreSQL: inside a dollar-quoted string',
    query: ['select id from t where owner = $q$', '{{claim:sub}}', '$q$'].join(''),
    engines: ['postgres'],
    message: 'stands inside quotes ($q$',
  },
  {
    name: 'an unclosed string holding one',
    query: "select id from t where owner = '{{claim:sub}}",
    message: 'stands inside quotes',
  },
  {
    name: 'another word than claim',
    query: 'select id from t where owner = {{user:sub}}',
    message:
      'Definition /defs/Mine.xml is invalid: the query has {{user:sub}}, which is not a claim placeholder: write {{claim:NAME}} (or {{claim-prefix:NAME}}), NAME made of letters, digits, _, -, : and . (a dot between two names)',
  },
  {
    name: 'spaces',
    query: 'select id from t where owner = {{ claim:sub }}',
    message: 'the query has {{ claim:sub }},',
  },
  { name: 'no name', query: 'select id from t where owner = {{claim:}}', message: 'the query has {{claim:}},' },
  { name: 'a slash', query: 'select id from t where owner = {{claim:a/b}}', message: 'the query has {{claim:a/b}},' },
  {
    name: 'an empty path step',
    query: 'select id from t where o = {{claim:a..b}}',
    message: 'the query has {{claim:a..b}},',
  },
  { name: 'unclosed', query: 'select id from t where owner = {{claim:sub', message: 'the query has {{claim:sub,' },
];

describe('parseClaims', () => {
  for (const { name, query, engines = both, parsed } of found) {
    it.each(engines)(`${name} (%s)`, (engine) => {
      expect(parseClaims(file, query, engine)).toEqual(parsed);
    });
  }
  for (const { name, query, engines = both, message } of broken) {
    it.each(engines)(`${name} is a broken definition (%s)`, (engine) => {
      const error = serviceErrorOf(() => parseClaims(file, query, engine));
      expect(error).toMatchObject({ status: 500, code: 'definition_invalid' });
      expect(error.message).toContain(message);
    });
  }
});

describe('how a placeholder is used', () => {
  it.each(uses)('$query: $use', ({ query, use }) => {
    for (const engine of both) expect(parseClaims(file, query, engine)?.claims).toEqual([{ name: 'x', use }]);
  });
  it('a condition and a value of the same claim', () => {
    expect(parseClaims(file, 'select id from t where {{claim:a}} or owner = {{claim:a}}', 'mysql')?.claims).toEqual([
      condition('a'),
      v('a'),
    ]);
  });
});

describe('probeQuery', () => {
  it('puts NULL in place of every claim: the probe needs no caller', () => {
    const parsed = parseClaims(file, 'select id from t where a = {{claim:sub}} and b in ({{claim:x}}, 1)', 'postgres');
    expect(probeQuery(parsed as ClaimQuery)).toBe('select id from t where a = NULL and b in (NULL, 1)');
  });
});
