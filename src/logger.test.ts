import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLog, type LogRecord } from './logger.ts';

const now = () => new Date('2026-11-28T04:11:11.476Z');
const request: LogRecord = {
  level: 'info',
  target: 'muninn::http',
  message: 'close',
  fields: { 'time.busy': '717µs' },
  span: { name: 'HTTP request', fields: { method: 'GET', route: '/health', query_parameters: '', user_agent: 'curl/8 (x)', status_code: 200 } },
};

function lines(level: Parameters<typeof createLog>[0]['level'], mode: 'human' | 'json', records: LogRecord[]): string[] {
  const out: string[] = [];
  const log = createLog({ level, mode, now, write: (line) => out.push(line) });
  for (const r of records) log(r);
  return out;
}

test('human lines: timestamp, level, span, target, message, fields', () => {
  assert.deepEqual(lines('INFO', 'human', [request, { level: 'warn', target: 'muninn::instance', message: 'removed 1 index directory' }]), [
    '2026-11-28T04:11:11.476Z  INFO HTTP request{method=GET route=/health query_parameters= user_agent="curl/8 (x)" status_code=200}: muninn::http: close time.busy=717µs\n',
    '2026-11-28T04:11:11.476Z  WARN muninn::instance: removed 1 index directory\n',
  ]);
});

test('JSON lines in the shape of Meilisearch json logs', () => {
  const [line] = lines('INFO', 'json', [request]);
  assert.deepEqual(JSON.parse(line!), {
    timestamp: '2026-11-28T04:11:11.476Z',
    level: 'INFO',
    fields: { message: 'close', 'time.busy': '717µs' },
    target: 'muninn::http',
    span: { method: 'GET', route: '/health', query_parameters: '', user_agent: 'curl/8 (x)', status_code: 200, name: 'HTTP request' },
    spans: [],
  });
  assert.deepEqual(JSON.parse(lines('ERROR', 'json', [{ level: 'error', target: 't', message: 'm' }])[0]!), { timestamp: '2026-11-28T04:11:11.476Z', level: 'ERROR', fields: { message: 'm' }, target: 't' });
});

test('--log-level keeps the records at that level or more severe', () => {
  const all: LogRecord[] = (['error', 'warn', 'info', 'debug', 'trace'] as const).map((level) => ({ level, target: 't', message: level }));
  const kept = (level: Parameters<typeof createLog>[0]['level']) => lines(level, 'human', all).map((l) => l.trim().split(' ').pop());
  assert.deepEqual(kept('OFF'), []);
  assert.deepEqual(kept('ERROR'), ['error']);
  assert.deepEqual(kept('WARN'), ['error', 'warn']);
  assert.deepEqual(kept('INFO'), ['error', 'warn', 'info']);
  assert.deepEqual(kept('TRACE'), ['error', 'warn', 'info', 'debug', 'trace']);
});
