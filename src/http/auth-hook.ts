// Every route declares the action it needs; this one hook enforces it (auth-keys.md §2, §6).
import type { FastifyRequest } from 'fastify';
import { AuthContext } from '../auth/index.ts';
import type { Instance } from '../instance/index.ts';

export interface RouteAuth {
  /** the action of auth-keys.md §6; 'public' for /health and / */
  action: string;
  /** name of the path parameter holding the index uid, if any */
  indexParam?: string;
  keysRoute?: boolean;
  /** a second action the key needs as well (`POST /render-template`: settings.get and documents.get) */
  alsoAction?: string;
}

const PUBLIC = new AuthContext({ via: 'open' });

export function authenticate(instance: Instance, req: FastifyRequest, auth: RouteAuth): AuthContext {
  if (auth.action === 'public') return PUBLIC;
  const params = req.params as Record<string, string> | undefined;
  const indexUid = auth.indexParam ? params?.[auth.indexParam] ?? null : null;
  const request = { authorization: req.headers.authorization, indexUid, keysRoute: auth.keysRoute ?? false };
  if (auth.alsoAction !== undefined) instance.auth.authorize({ ...request, action: auth.alsoAction });
  return instance.auth.authorize({ ...request, action: auth.action });
}
