import { kestrelProxy } from '../../../../server/kestrel-backend';

// Every request goes to Kestrel (or the mock) as it comes: never cached, never prerendered.
export const dynamic = 'force-dynamic';

/**
 * The kit's backend-for-frontend proxy under `/api/kestrel/v1/...`: it checks the route, the origin of POSTs and
 * their content type, adds the server's credentials and streams Kestrel's answer back (see docs/server.md).
 */
function handle(request: Request): Promise<Response> {
  return Promise.resolve(kestrelProxy(request));
}

export { handle as GET, handle as POST };
