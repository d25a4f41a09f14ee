import { describe, expect, it } from 'vitest';
import { EngineClient } from '../src/load/http.js';

describe('EngineClient.close', () => {
  it('can be called twice: a failed restart leaves the cleanup a closed client', async () => {
    const client = new EngineClient('http://127.0.0.1:9', 1, 1000);
    await client.close();
    await expect(client.close()).resolves.toBeUndefined();
  });
});
