// JSON values as `JSON.parse` returns them. Defined once here, at the lowest layer that needs it:
// auth (tenant token filters) and api (request bodies) use this type too.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
