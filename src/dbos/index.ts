// toolnexus/dbos: durable runs on DBOS Transact over Postgres. Needs `@dbos-inc/dbos-sdk` installed.
export { createDbosRunner, type DbosRunner, type DbosRunnerOptions } from './create-dbos-runner.js'
