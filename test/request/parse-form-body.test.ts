import type { RawValue } from '../../lib/request/resource-request';
import { badBody, failure, flatNames, hierarchicalNames, parseBody } from '../support/body-rows';

describe('parseBody form', () => {
  it.each<[string, Record<string, RawValue>]>([
    ['title=Airport+Pollock&price=20.10', { title: 'Airport Pollock', price: '20.10' }],
    ['title=a%2Bb%26c%3Dd', { title: 'a+b&c=d' }],
    ['title=null', { title: null }],
    ['title=%5Cnull', { title: 'null' }],
    ['title=NULL', { title: 'NULL' }],
    ['title=', { title: '' }],
    ['title', { title: '' }],
    ['title=!null', { title: '!null' }],
    ['price=%3E5', { price: '>5' }],
    ['title=(a,b)', { title: '(a,b)' }],
    ['title=50%25', { title: '50%' }],
    // The leading backslash escapes as in query strings; every other backslash is literal.
    ['title=%5C%5Cnull', { title: '\\null' }],
    ['title=\\!Hello', { title: '!Hello' }],
    ['title=%5C!null', { title: '!null' }],
    ['title=%5C%5Cx', { title: '\\x' }],
    ['title=%5C%3C3', { title: '<3' }],
    ['title=%5C>3', { title: '>3' }],
    ['title=%5C(a,b)', { title: '(a,b)' }],
    ['title=%5Cx', { title: '\\x' }],
    ['title=a%5C!b', { title: 'a\\!b' }],
    ['title=%5C', { title: '\\' }],
    ['title=%5C%25', { title: '\\%' }],
    ['id=0012&&title=+x+', { id: '0012', title: ' x ' }],
    ['t%C3%ADtulo=Zo%C3%AB', { título: 'Zoë' }],
  ])('reads %p as one row', async (text, values) => {
    expect(await parseBody('form', text, flatNames, 'parents')).toEqual([{ values }]);
  });

  it('ignores the shape: a form body is always one row', async () => {
    expect(await parseBody('form', 'filmId=3', hierarchicalNames, 'children')).toEqual([{ values: { filmId: '3' } }]);
  });

  it.each([
    ['', 'The form body has no fields'],
    ['&&', 'The form body has no fields'],
    ['title=a&title=b', 'The form field title is given more than once'],
    ['title=null&title=null', 'The form field title is given more than once'],
    ['=5', 'The form body has a value with no field name'],
    ['title=%zz', 'The form body cannot be decoded: Malformed percent-encoding in "%zz"'],
  ])('refuses %p: %s', async (text, message) => {
    expect(await failure(() => parseBody('form', text, flatNames, 'parents'))).toEqual(badBody(message));
  });
});
