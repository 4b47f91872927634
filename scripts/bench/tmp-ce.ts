import { randomUUID } from 'node:crypto';
import { config } from '../../lib/config';
import { resolveResource } from '../../lib/definitions/resolve-resource';
import { changeEvents } from '../../lib/events/change-events';
import type { ResourceTable } from '../../lib/resource';
void (async () => {
  const { resource } = await resolveResource(config(), 'PublisherEvents');
  const table = Object.values(resource.tables)[0] as ResourceTable;
  let x = 0;
  for (let round = 0; round < 4; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 100000; i++) {
      const ev = changeEvents(resource, [{ verb: 'insert', table, after: { publisher_id: 1000 + i, name: `n${i}`, country: null, founded: null } }], false, { source: 's', requestId: `r${i}`, time: Date.now(), newId: randomUUID });
      x += ev[0]?.event.length ?? 0;
    }
    console.log('per call', Number(process.hrtime.bigint() - t0) / 1e5 / 1000, 'µs');
  }
  process.exit(x > 0 ? 0 : 1);
})();
