// An operator's setup problem on MongoDB, in a module of its own without the driver: the command
// line recognizes it (src/cli/main.ts) without loading the driver for the embedded store's commands.

/** The server cannot hold what the store needs (an index, Atlas Search): an operator's problem, said in one line. */
export class MongoSetupError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // Each subclass is named by its own class: SearchIndexMissingError, IndexCreationError.
    this.name = new.target.name;
  }
}
