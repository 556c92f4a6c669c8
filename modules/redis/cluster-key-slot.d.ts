// Types for cluster-key-slot (the Redis project's slot function, which ships none): the Cluster slot of a key.
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string | Buffer): number;
}
