// The Meilisearch version whose API and database rules Muninn follows (`GET /version`'s `pkgVersion`,
// the VERSION file, `dbVersion` of dumps).
export const API_VERSION = '1.50.0';
