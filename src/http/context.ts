// What every route group is registered with, and the request fields the app adds. Routes import
// this, never app.ts (which imports them).
import type { AuthContext } from '../auth/index.ts';
import type { Instance } from '../instance/index.ts';
import type { RouteAuth } from './auth-hook.ts';

export interface HttpContext {
  instance: Instance;
  /** the payload size limit in bytes, and as the error message prints it */
  payloadLimit: number;
  payloadLimitText: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /** the Content-Type header, kept aside by app.ts (read it through body.ts `contentTypeHeader`) */
    contentTypeHeader: string | undefined;
  }
}
