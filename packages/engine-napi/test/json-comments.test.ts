import { describe, expect, it } from 'vitest';
import { stripJsonComments } from '../ts/json-comments.js';

const strip = (text: string) => stripJsonComments(Buffer.from(text)).toString();

describe('stripJsonComments', () => {
  it('returns a body without comments as it is', () => {
    const body = Buffer.from('{"a":"x/y"}');
    expect(stripJsonComments(body)).toBe(body);
  });

  it('drops block and line comments', () => {
    expect(JSON.parse(strip('{/* c */"a":1, // rest\n"b":2}'))).toEqual({ a: 1, b: 2 });
    expect(JSON.parse(strip('{"a":1}\n// trailing'))).toEqual({ a: 1 });
  });

  it('leaves comment-like text inside strings alone', () => {
    expect(JSON.parse(strip('{"u":"http://x/*y*/", "q":"a\\"//b"} // c'))).toEqual({
      u: 'http://x/*y*/',
      q: 'a"//b',
    });
  });
});
