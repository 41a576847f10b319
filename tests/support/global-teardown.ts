import { stopGenerators } from './generator-processes';

/** Stops the schema generators the global set-up started. */
export default function globalTeardown(): void {
    stopGenerators();
}
