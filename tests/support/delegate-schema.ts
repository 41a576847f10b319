/**
 * A `@@delegate` hierarchy for tests: users own assets (readable when published or by their owner;
 * `label` by their owner only), notes belong to an asset and a user; the caller adds the concrete models that extend `Asset`.
 */
export function delegateSchema(concreteModels: string): string {
    return `
model User {
  id     Int     @id
  name   String  @default('')
  assets Asset[]
  notes  Note[]
  @@allow('all', true)
}

model Asset {
  id        Int     @id
  published Boolean @default(false)
  owner     User    @relation(fields: [ownerId], references: [id])
  ownerId   Int
  notes     Note[]
  assetType String
  label     String  @default('') @allow('read', auth() == owner)
  @@delegate(assetType)
  @@allow('read', published || auth() == owner)
  @@allow('create,update,delete', auth() == owner)
}

model Note {
  id      Int    @id
  text    String @default('')
  asset   Asset  @relation(fields: [assetId], references: [id])
  assetId Int
  user    User   @relation(fields: [userId], references: [id])
  userId  Int
  @@allow('all', true)
}
${concreteModels}`;
}
