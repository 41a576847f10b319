import type { TestSchema } from '../support/schema';

/**
 * A `@@delegate` hierarchy whose concrete models have write rules of their own: an image with format `keep`
 * may not be deleted, one with format `locked` not updated, by anyone; videos have only the base's rules.
 * Any signed-in user may update or delete an asset (so a record a user cannot read can still be written),
 * and assets are readable when published or by their owner.
 */
export const SCHEMA = `
model User {
  id     Int     @id
  assets Asset[]
  notes  Note[]
  @@allow('all', true)
}

model Asset {
  id        Int     @id
  published Boolean @default(false)
  owner     User    @relation(fields: [ownerId], references: [id])
  ownerId   Int
  label     String  @default('')
  slug      String  @unique @default(cuid())
  notes     Note[]
  assetType String
  @@delegate(assetType)
  @@allow('read', published || auth() == owner)
  @@allow('create', auth() == owner)
  @@allow('update,delete', auth() != null)
}

model Note {
  id      Int   @id
  asset   Asset @relation(fields: [assetId], references: [id])
  assetId Int
  user    User  @relation(fields: [userId], references: [id])
  userId  Int
  @@allow('all', true)
}

model Image extends Asset {
  format String @default('png')
  @@deny('delete', format == 'keep')
  @@deny('update', format == 'locked')
}

model Video extends Asset {
  duration Int @default(0)
}
`;

/** The same, but the base model has no delete rule: images may be deleted unless kept, videos never. */
export const ONLY_IMAGES = SCHEMA.replace("@@allow('update,delete', auth() != null)", "@@allow('update', auth() != null)").replace(
    "@@deny('delete', format == 'keep')",
    "@@allow('delete', format != 'keep')",
);

/** Ids of the seeded assets, all owned by user 1: published unless the name says hidden. */
export const ASSET = { png: 1, keep: 2, locked: 3, video: 4, hiddenLocked: 5, hiddenPng: 6 } as const;

export async function seed(s: TestSchema): Promise<void> {
    await s.prisma.note.deleteMany();
    await s.prisma.asset.deleteMany();
    await s.prisma.user.deleteMany();
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    const ann = s.enhance({ id: 1 }) as never as Record<string, { create(args: unknown): Promise<unknown> }>;
    const image = (id: number, format: string, published = true) =>
        ann.image.create({ data: { id, format, published, label: 'old', slug: `${format}-${id}`, owner: { connect: { id: 1 } } } });
    await image(ASSET.png, 'png');
    await image(ASSET.keep, 'keep');
    await image(ASSET.locked, 'locked');
    await ann.video.create({ data: { id: ASSET.video, published: true, label: 'old', slug: `video-${ASSET.video}`, owner: { connect: { id: 1 } } } });
    await image(ASSET.hiddenLocked, 'locked', false);
    await image(ASSET.hiddenPng, 'png', false);
}

/** Every asset's id and label, read without the policy. */
export async function labels(s: TestSchema): Promise<Record<number, string>> {
    const rows = (await (s.prisma as never as Record<string, { findMany(args: unknown): Promise<Array<{ id: number; label: string }>> }>).asset.findMany({
        select: { id: true, label: true },
    })) as Array<{ id: number; label: string }>;
    return Object.fromEntries(rows.map((r) => [r.id, r.label]));
}
