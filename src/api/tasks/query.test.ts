import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { parseQueryString } from '../validate/index.ts';
import { parseBatchUid, parseTasksQuery, parseTaskUid, type TasksQueryMode } from './query.ts';

const iso = (s: string): number => Date.parse(s) * 1000;

function throwsApi(fn: () => unknown, code: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    return true;
  });
}

const list = (qs: string) => parseTasksQuery(parseQueryString(qs), 'list');

const ALL_TYPES =
  '`documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`';
const ALL_STATUSES = '`enqueued`, `processing`, `succeeded`, `failed`, `canceled`';
const UID_RULE =
  'is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.';
const LIST_KNOWN =
  '`limit`, `from`, `reverse`, `batchUids`, `uids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`';
const FILTER_KNOWN =
  '`uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`';

test('defaults and pagination parameters', () => {
  assert.deepEqual(list(''), { filter: {}, page: { limit: 20, reverse: false } });
  assert.deepEqual(list('limit=3&from=8&reverse=true'), { filter: {}, page: { limit: 3, from: 8, reverse: true } });
  assert.deepEqual(list('limit=0&reverse=false').page, { limit: 0, reverse: false });
  assert.deepEqual(list('limit=4294967295').page.limit, 4294967295);
  assert.deepEqual(list('from=%2B7').page.from, 7);
});

test('filters: lists, case-insensitive enums, stars, empty lists, dates', () => {
  const cases: [string, object][] = [
    ['uids=1,2,3', { uids: [1, 2, 3] }],
    ['batchUids=0', { batchUids: [0] }],
    ['canceledBy=9,10', { canceledBy: [9, 10] }],
    ['uids=1,,2,', { uids: [1, 2] }],
    ['uids=', { uids: [] }],
    ['uids=*', {}],
    ['uids=1,*', {}],
    ['types=DocumentAdditionOrUpdate,INDEXCREATION,dsrclear', { types: ['documentAdditionOrUpdate', 'indexCreation', 'dsrClear'] }],
    ['statuses=Succeeded,FAILED', { statuses: ['succeeded', 'failed'] }],
    ['statuses=*,failed', {}],
    ['indexUids=test,*', {}],
    ['indexUids=movies,Books_2-x', { indexUids: ['movies', 'Books_2-x'] }],
    ['afterEnqueuedAt=2021-12-03', { afterEnqueuedAt: iso('2021-12-04T00:00:00Z') }],
    ['beforeEnqueuedAt=2021-12-03', { beforeEnqueuedAt: iso('2021-12-03T00:00:00Z') }],
    ['afterStartedAt=1997-11-12T09:55:06-06:20', { afterStartedAt: iso('1997-11-12T16:15:06Z') }],
    ['beforeStartedAt=2021-12-03T23:45:23%2B01:00', { beforeStartedAt: iso('2021-12-03T22:45:23Z') }],
    ['afterFinishedAt=*&beforeFinishedAt=2021-12-03T23:45:23Z', { beforeFinishedAt: iso('2021-12-03T23:45:23Z') }],
  ];
  for (const [qs, filter] of cases) assert.deepEqual(list(qs).filter, filter, qs);
});

test('parsing does not depend on pagination parameters', () => {
  const base = list('statuses=failed&indexUids=movies&uids=1,2').filter;
  for (const extra of ['limit=1', 'from=0', 'reverse=true', 'limit=0&from=5&reverse=false']) {
    assert.deepEqual(list(`${extra}&statuses=failed&indexUids=movies&uids=1,2`).filter, base, extra);
    assert.deepEqual(list(`statuses=failed&${extra}&indexUids=movies&uids=1,2`).filter, base, extra);
  }
});

test('error messages of each parameter', () => {
  const cases: [string, string, string][] = [
    ['limit=doggo', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
    ['limit=-1', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer'],
    ['limit=4294967296', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `4294967296` as a positive integer'],
    ['limit=', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `` as a positive integer'],
    ['from=*', 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `*` as a positive integer'],
    ['reverse=*', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
    ['reverse=TRUE', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `TRUE` as a boolean, expected either `true` or `false`'],
    ['uids=dogo', 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `dogo` as a positive integer'],
    ['uids=1,dogo', 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer'],
    ['uids=1,%202', 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse ` 2` as a positive integer'],
    ['uids=*,x', 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse `x` as a positive integer'],
    ['batchUids=a', 'invalid_batch_uids', 'Invalid value in parameter `batchUids`: could not parse `a` as a positive integer'],
    ['canceledBy=0,1,-2', 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy[2]`: could not parse `-2` as a positive integer'],
    ['types=doggo', 'invalid_task_types', `Invalid value in parameter \`types\`: \`doggo\` is not a valid task type. Available types are ${ALL_TYPES}.`],
    ['types=indexCreation,doggo', 'invalid_task_types', `Invalid value in parameter \`types[1]\`: \`doggo\` is not a valid task type. Available types are ${ALL_TYPES}.`],
    ['statuses=doggo', 'invalid_task_statuses', `Invalid value in parameter \`statuses\`: \`doggo\` is not a valid task status. Available statuses are ${ALL_STATUSES}.`],
    ['statuses=failed,,doggo', 'invalid_task_statuses', `Invalid value in parameter \`statuses[1]\`: \`doggo\` is not a valid task status. Available statuses are ${ALL_STATUSES}.`],
    ['indexUids=the%20good%20doggo', 'invalid_index_uid', `Invalid value in parameter \`indexUids\`: \`the good doggo\` ${UID_RULE}`],
    ['indexUids=a,b%26c', 'invalid_index_uid', `Invalid value in parameter \`indexUids[1]\`: \`b&c\` ${UID_RULE}`],
    [`indexUids=${'a'.repeat(401)}`, 'invalid_index_uid', `Invalid value in parameter \`indexUids\`: \`${'a'.repeat(401)}\` ${UID_RULE}`],
    ['afterEnqueuedAt=2021-12', 'invalid_task_after_enqueued_at', 'Invalid value in parameter `afterEnqueuedAt`: `2021-12` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['beforeEnqueuedAt=2021', 'invalid_task_before_enqueued_at', 'Invalid value in parameter `beforeEnqueuedAt`: `2021` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['afterStartedAt=2021-12-03T23', 'invalid_task_after_started_at', 'Invalid value in parameter `afterStartedAt`: `2021-12-03T23` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['beforeStartedAt=2021-12-03T23:45', 'invalid_task_before_started_at', 'Invalid value in parameter `beforeStartedAt`: `2021-12-03T23:45` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['afterFinishedAt=*,*', 'invalid_task_after_finished_at', 'Invalid value in parameter `afterFinishedAt`: `*,*` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['beforeFinishedAt=', 'invalid_task_before_finished_at', 'Invalid value in parameter `beforeFinishedAt`: `` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['lol=1', 'bad_request', `Unknown parameter \`lol\`: expected one of ${LIST_KNOWN}`],
  ];
  for (const [qs, code, message] of cases) throwsApi(() => list(qs), code, message);
});

test('the first offending parameter in query order is reported', () => {
  throwsApi(() => list('uids=x&limit=y'), 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `x` as a positive integer');
  throwsApi(() => list('limit=y&uids=x'), 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `y` as a positive integer');
  throwsApi(() => list('doggo=1&limit=y'), 'bad_request', `Unknown parameter \`doggo\`: expected one of ${LIST_KNOWN}`);
});

test('cancel and delete: accepted parameters, missing filters, originalQuery', () => {
  for (const mode of ['cancel', 'delete'] as TasksQueryMode[]) {
    for (const p of ['limit', 'from', 'reverse']) {
      throwsApi(() => parseTasksQuery({ [p]: '1' }, mode), 'bad_request', `Unknown parameter \`${p}\`: expected one of ${FILTER_KNOWN}`);
    }
    const verb = mode === 'cancel' ? 'cancel' : 'delete';
    throwsApi(
      () => parseTasksQuery({}, mode),
      'missing_task_filters',
      `Query parameters to filter the tasks to ${verb} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`,
    );
    const star = parseTasksQuery({ statuses: '*' }, mode, 'statuses=*');
    assert.deepEqual(star, { filter: {}, page: { limit: Infinity, reverse: false }, originalQuery: '?statuses=*' });
    const raw = 'statuses=succeeded,failed&indexUids=movies';
    const parsed = parseTasksQuery(parseQueryString(raw), mode, raw);
    assert.deepEqual(parsed.filter, { statuses: ['succeeded', 'failed'], indexUids: ['movies'] });
    assert.equal(parsed.originalQuery, '?statuses=succeeded,failed&indexUids=movies');
    assert.equal(parseTasksQuery({ uids: '0' }, mode, '?uids=0').originalQuery, '?uids=0');
    assert.equal(
      parseTasksQuery({ beforeEnqueuedAt: '2021-12-03T23:45:23+01:00', statuses: 'failed,canceled' }, mode).originalQuery,
      '?beforeEnqueuedAt=2021-12-03T23:45:23%2B01:00&statuses=failed,canceled',
    );
    assert.deepEqual(parseTasksQuery({ uids: '' }, mode, 'uids=').filter, { uids: [] });
  }
});

test('path uids', () => {
  assert.equal(parseTaskUid('0'), 0);
  assert.equal(parseTaskUid('4294967295'), 4294967295);
  assert.equal(parseBatchUid('12'), 12);
  for (const raw of ['abc', '-1', '1.5', '', ' 1', '4294967296']) {
    throwsApi(() => parseTaskUid(raw), 'invalid_task_uids', `Task uid \`${raw}\` is invalid. It should only contain numeric characters.`);
    throwsApi(() => parseBatchUid(raw), 'invalid_batch_uids', `Batch uid \`${raw}\` is invalid. It should only contain numeric characters.`);
  }
});
