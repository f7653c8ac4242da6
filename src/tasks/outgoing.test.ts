import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDestination, reachable } from './outgoing.ts';

test('only global addresses are reachable unless their network is allowed', () => {
  const cases: [string, boolean][] = [
    ['8.8.8.8', true], ['172.32.0.1', true], ['2606:4700::1111', true], ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.20.0.1', false], ['192.168.1.1', false], ['100.64.1.1', false],
    ['169.254.169.254', false], ['0.0.0.0', false], ['::1', false], ['fe80::1', false], ['fd00::5', false], ['::ffff:127.0.0.1', false],
  ];
  for (const [ip, expected] of cases) assert.equal(reachable(ip, []), expected, ip);
  assert.equal(reachable('127.0.0.1', [{ address: '127.0.0.0', prefix: 8, family: 'ipv4' }]), true);
  assert.equal(reachable('10.0.0.1', [{ address: '127.0.0.0', prefix: 8, family: 'ipv4' }]), false);
  assert.equal(reachable('fd00::5', [{ address: 'fd00::', prefix: 8, family: 'ipv6' }]), true);
  assert.equal(reachable('10.0.0.1', 'any'), true);
});

test('a destination is checked by the addresses its host resolves to', async () => {
  await assert.rejects(checkDestination(new URL('http://localhost:1/x'), []), /a non-global address that outgoing requests may not reach/);
  await assert.rejects(checkDestination(new URL('http://[::1]:1/'), []), /::1/);
  await checkDestination(new URL('http://127.0.0.1:1/'), [{ address: '127.0.0.0', prefix: 8, family: 'ipv4' }]);
});
