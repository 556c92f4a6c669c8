// The tallies the board shows: named counters kept in the caller's tenant state (ctx.state), so each tenant sees its
// own board, and every instance on one store sees the same one. A tenant that never counted starts from a sample.
import { type Context, Injectable } from 'mcp-kiln';
import { z } from 'zod';

export interface Tally {
  readonly name: string;
  readonly count: number;
}

const KEY = 'tally-board';
const Counts = z.array(z.object({ name: z.string(), count: z.number().int() }));
const SAMPLE: readonly Tally[] = [
  { name: 'coffee', count: 2 },
  { name: 'tea', count: 1 },
];

@Injectable()
export class TallyService {
  async list(state: Context['state']): Promise<Tally[]> {
    return (await state.get(KEY, Counts)) ?? [...SAMPLE];
  }

  /** Read, add, write: two increments racing on one tally can lose one, which a counter board tolerates. */
  async add(state: Context['state'], name: string, by: number): Promise<Tally> {
    const tallies = await this.list(state);
    const found = tallies.find((tally) => tally.name === name);
    const updated = { name, count: (found?.count ?? 0) + by };
    await state.set(KEY, found ? tallies.map((tally) => (tally === found ? updated : tally)) : [...tallies, updated]);
    return updated;
  }
}
