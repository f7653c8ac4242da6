// Task details helpers used by the scheduler (the views of src/api/tasks own their shapes).
export { failedDetails, aggregateBatchDetails, batchStats } from '../api/tasks/views.ts';
