/** Injection key of the initialized TypeORM DataSource. */
export const DATA_SOURCE = Symbol.for('switchyard.persistence.data-source');
/** Injection key of the resolved PersistenceModuleOptions. */
export const PERSISTENCE_OPTIONS = Symbol.for('switchyard.persistence.options');
