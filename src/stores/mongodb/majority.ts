// The write concern of every write that ends or grants access: a revocation, a password change,
// a link's use. Acknowledged by a majority, a rollback after a failover cannot undo it (bring a
// revoked token or a used link back), whatever default write concern the cluster has.
export const MAJORITY = { writeConcern: { w: 'majority' } } as const;
