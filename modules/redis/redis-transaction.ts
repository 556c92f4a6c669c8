// Running a MULTI on ioredis: exec() resolves even when a queued command failed, with the error beside its reply.
import type { ChainableCommander } from 'ioredis';

/** Every reply of a MULTI, or the first command error it carried. */
export async function execAll(transaction: ChainableCommander): Promise<unknown[]> {
  const replies = await transaction.exec();
  if (replies === null) throw new Error('Redis discarded the transaction');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
