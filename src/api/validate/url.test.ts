import { test } from 'node:test';
import assert from 'node:assert/strict';
import { urlParseError } from './url.ts';

test('URL errors are worded as the url crate words them (answers of Meilisearch 1.50)', () => {
  const cases: [string, string | undefined][] = [
    ['http://a', undefined],
    ['mailto:x', undefined],
    ['x:', undefined],
    ['http:/a', undefined],
    [' http://a ', undefined],
    ['HTTP://A/B?c#d', undefined],
    ['notaurl', 'relative URL without a base'],
    ['/rel', 'relative URL without a base'],
    ['http://', 'empty host'],
    ['http://a:99999', 'invalid port number'],
    ['http://[::1', 'invalid IPv6 address'],
    ['http://300.1.1.1', 'invalid IPv4 address'],
    ['http://a b', 'invalid international domain name'],
    ['http://a%zz', 'invalid international domain name'],
  ];
  for (const [url, reason] of cases) assert.equal(urlParseError(url), reason, url);
});
