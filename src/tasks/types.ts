// The task model is owned by the API contract layer (api/tasks/model.ts); the queue, the
// autobatcher, the scheduler and the processors import it from here.
export * from '../api/tasks/model.ts';
