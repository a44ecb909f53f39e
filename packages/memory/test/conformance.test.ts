import { describeStoreConformance } from '../src/testing/index.js';
import { allBackends } from './support/backends.js';

for (const backend of allBackends()) {
  describeStoreConformance(backend.name, { open: () => backend.open(), skip: backend.skip });
}
