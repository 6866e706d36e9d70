import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSession } from './session.repository.js';

/** A `preHandler` for the pages of an account: a visitor who is not signed in goes to the sign-in page. */
export async function redirectSignedOutToSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (request.session === null) return reply.redirect('/sign-in', 303);
  return undefined;
}

/** The session of a request behind `redirectSignedOutToSignIn`. */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  if (request.session === null) throw new Error('account pages run behind the session check');
  return request.session;
}
