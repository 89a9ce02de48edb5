import { it } from 'vitest';
import { useSeededService } from '../test/support/fixtures.js';
const f = useSeededService();
it('x', async () => {
  const r = await f.service.graphql('{ __schema { queryType { name } } __type(name: "Transaction") { kind possibleTypes { name } fields { name type { kind name ofType { name } } } } }');
  console.log(r.status, JSON.stringify(r.body).slice(0, 500));
});
