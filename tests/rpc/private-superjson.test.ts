import Decimal from 'decimal.js';
import SuperJSON from 'superjson';
import { deserializeValue, serializeValue } from '../../src/api/common/codec';

/** The codec's types live on a private superjson instance: the application's global one is left alone. */
it('registers nothing on the global superjson instance', () => {
    // use the codec both ways, as the handlers do
    expect(serializeValue({ d: new Decimal('1.5'), b: new Uint8Array([1]) }).values).toEqual({ d: [['custom', 'Decimal']], b: [['custom', 'Bytes']] });
    const restored = deserializeValue({ d: '1.5' }, { values: { d: [['custom', 'Decimal']] } }) as { d: unknown };
    expect(Decimal.isDecimal(restored.d)).toBe(true);

    // the global instance still knows no Decimal or Bytes: it neither tags them nor can restore them
    const globalOut = SuperJSON.serialize({ d: new Decimal('1.5'), b: Buffer.from([1]) });
    expect(JSON.stringify(globalOut.meta ?? {})).not.toContain('custom');
    expect(() => SuperJSON.deserialize({ json: { d: '1.5' }, meta: { values: { d: [['custom', 'Decimal']] } } } as never)).toThrow();
});
