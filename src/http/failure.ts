/** The status of a failed run's problem answer: one mapping, kept with the steps (src/steps/failure-status.ts). */
export { failureStatus } from '../steps/index.js';
