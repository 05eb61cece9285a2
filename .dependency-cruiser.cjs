// Dependency direction (brief §4), checked by `npm run lint:deps`:
//   HTTP layer → domain ← store adapters; search wing → domain; stores and search side by side,
//   no adapter importing another; the two MongoDB adapters meet in src/mongodb-shared; only composition
//   roots pick an adapter or an engine, and hand each side of the MongoDB seam what the other makes.
// Paths are relative to the repository root; the tree imports with explicit `.ts` extensions.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-outer-layers',
      comment:
        'src/domain is the core: it imports nothing from the rest of src (src/http, src/stores, src/search, ' +
        'src/main.ts, src/composition, config, security, import, cli, client). Outer layers ' +
        "depend on the domain and implement its ports (each slice's *.ports.ts), never the other way round.",
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'domain-no-frameworks-or-drivers',
      comment:
        'No express (not even its types: no req/res), no database driver (node:sqlite, mongodb) and no ' +
        'argon2 in the domain: it reaches them through ports.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ['(^|/)node_modules/(@types/)?(express|mongodb|argon2)/', '^(node:)?sqlite$'] },
    },
    // The domain's slices (docs/architecture.md): each imports only the slices it names, and every
    // slice the shared module. A rule two slices need lives in the one that owns it (the credential
    // rules in accounts/credentials.ts), never in another slice's service.
    ...[
      ['shared', []],
      ['catalog', []],
      ['mail', []],
      ['accounts', ['mail']],
      ['metering', ['accounts', 'catalog']],
      ['search', ['accounts', 'catalog', 'metering']],
    ].map(([slice, uses]) => ({
      name: `domain-${slice}-imports-only-the-slices-it-names`,
      comment: `src/domain/${slice}/ imports only ${[...uses, 'shared'].map((u) => `src/domain/${u}/`).join(', ')} and itself.`,
      severity: 'error',
      from: { path: `^src/domain/${slice}/` },
      to: {
        path: '^src/domain/',
        pathNot: [`^src/domain/(${[slice, 'shared', ...uses].join('|')})/`],
      },
    })),
    {
      name: 'services-reach-each-other-through-their-instances',
      comment:
        'A domain service uses another only through the instance the composition root hands it (an import ' +
        'type): no module of the domain imports a service at run time, and a rule or a type two services ' +
        'share lives in a module of its own (credentials.ts, the slice ports), never in a service.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/domain/.+[.]service[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-not-to-generated',
      comment:
        'The domain does not know the contract, not even its generated types: the handlers (src/http) ' +
        'map between generated types and domain types.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^generated/' },
    },
    {
      name: 'server-generated-types-only',
      comment:
        'Server code uses generated/ for types only (`import type`): the server validates with ' +
        'express-openapi-validator reading the contract, and runs no generated runtime code (no second ' +
        'validator). Generated runtime code (SDK, zod) belongs to the client (clients/typescript) and the tests.',
      severity: 'error',
      from: { path: '^src/(http/|stores/|search/|mongodb/|composition/|main[.]ts$)' },
      to: { path: '^generated/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'search-wing-over-the-domain-only',
      comment:
        'src/search is the search wing: every engine (memory/ the in-process index, mongodb/ the $text and ' +
        'Atlas Search engines, the reference), over the rules of src/domain/search, and the managed engine ' +
        'the process keeps fresh. It imports the domain and itself only (and src/mongodb-shared, the seam its MongoDB ' +
        'engines share with the MongoDB store: rule mongodb-seam-only-for-its-two-users): no HTTP, no store ' +
        'adapter, no configuration. A store hands it its catalog through the SchoolStore port, and the MongoDB ' +
        'store serves it the catalog its pipelines run on through the port in src/mongodb-shared/catalog.port.ts.',
      severity: 'error',
      from: { path: '^src/search/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/search/', '^src/mongodb-shared/'] },
    },
    {
      name: 'stores-and-search-side-by-side',
      comment:
        'The stores (src/stores) and the search wing (src/search) stand side by side over the domain: neither ' +
        'imports the other, not even its types (an import of types still orders what must be read and ' +
        "changed first: npm run deps:layers). A store hands the wing its catalog through the domain's " +
        'SchoolStore port; the MongoDB store and the MongoDB engines meet in src/mongodb-shared (the catalog port, ' +
        "the document, the causal-read session), and the composition root (src/composition) hands the wing's " +
        "catalog extension to the store and the store's served catalog to the wing.",
      severity: 'error',
      from: { path: '^src/(stores|search)/' },
      to: { path: '^src/(stores|search)/', pathNot: '^src/$1/' },
    },
    {
      name: 'adapters-never-import-each-other',
      comment:
        'An adapter is a folder of src/stores (sqlite/, mongodb/) or of src/search (memory/, mongodb/): it ' +
        'imports no other adapter, of its wing or of the other. What two adapters legitimately share lives ' +
        'outside every adapter folder, each in one place: the domain (ports, entities, the search rules); their ' +
        "wing's own files (src/stores/store.config.ts, the stores' settings; src/search/managed.engine.ts and " +
        'reference.engine.ts); and, for the two on MongoDB only, src/mongodb-shared (rule ' +
        'mongodb-seam-only-for-its-two-users). So the embedded store and the in-process index never load the ' +
        'driver through a MongoDB adapter, and a change to one adapter stays in its folder.',
      severity: 'error',
      from: { path: '^src/(stores|search)/([^/]+)/' },
      to: { path: '^src/(stores|search)/[^/]+/', pathNot: '^src/$1/$2/' },
    },
    {
      name: 'stores-hold-no-search-rules',
      comment:
        'No engine code in src/stores: a store does not match, rank, plan a query or derive search fields, so ' +
        'it imports none of the search rules (src/domain/search). It may name the catalog an engine indexes ' +
        '(engine.port.ts, types) and store the sort key of a name (normalize.ts: nameSortKey), as any store does.',
      severity: 'error',
      from: { path: '^src/stores/' },
      to: { path: '^src/domain/search/', pathNot: '^src/domain/search/(engine|normalize)[.]ts$' },
    },
    {
      name: 'mongodb-driver-in-its-three-rooms',
      comment:
        'The official driver (mongodb) is used by the MongoDB store (src/stores/mongodb), the search engines on ' +
        'MongoDB (src/search/mongodb) and the seam they share (src/mongodb-shared); nowhere else in src, not even its ' +
        'types: the rest reaches MongoDB through the ports.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/stores/mongodb/', '^src/search/mongodb/', '^src/mongodb-shared/'] },
      to: { path: '(^|/)node_modules/mongodb/' },
    },
    {
      name: 'mongodb-seam-only-for-its-two-users',
      comment:
        'src/mongodb-shared is what the two users of the driver share, written once, so that they agree and import ' +
        "nothing of each other: the MongoDB store and the search engines on MongoDB. It holds a school's " +
        'document and its mapping to School (school-document.ts), the port between them (catalog.port.ts: the ' +
        "wing's catalog extension, the store's served catalog), the causal-read session (served-catalog.ts) " +
        'and which driver failures are "unavailable now" (a 503) and which are setup problems (errors.ts). ' +
        'Nothing else in src imports it but the command line, which reports setup problems (setup-error.ts).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/stores/mongodb/', '^src/search/mongodb/', '^src/mongodb-shared/', '^src/cli/'],
      },
      to: { path: '^src/mongodb-shared/' },
    },
    {
      name: 'mongodb-seam-over-the-domain-only',
      comment:
        "src/mongodb-shared sits below both of its users: it imports the domain (StoreUnavailableError, the catalog's " +
        'entities, the sort key of a name) and the driver, never either side of the seam.',
      severity: 'error',
      from: { path: '^src/mongodb-shared/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/mongodb-shared/'] },
    },
    {
      name: 'search-engines-only-from-composition-roots',
      comment:
        'Only the composition root picks and starts a search engine: src/composition (the in-process index by ' +
        'default, or the engine the configuration names with the store behind its port, and the search setup ' +
        'of `school-search indexes`), and scripts and tests. The HTTP layer and the domain reach the engine ' +
        'through the SearchEngine port (src/domain/search/engine.port.ts).',
      severity: 'error',
      from: {
        pathNot: ['^src/composition/', '^src/search/', '^scripts/', '^test/'],
      },
      to: { path: '^src/search/' },
    },
    {
      name: 'typescript-client-over-the-generated-sdk-only',
      comment:
        'The TypeScript client (clients/typescript) is a package of its own: it wraps the generated SDK and ' +
        'its zod schemas, and imports nothing of the server.',
      severity: 'error',
      from: { path: '^clients/typescript/src/' },
      to: { pathNot: ['^clients/typescript/src/', '^generated/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'school-picker-depends-on-nothing',
      comment:
        'clients/school-picker is a dependency-free browser module (bundled by src/http/routes/picker-assets.ts, ' +
        'served to other sites): it imports only its own files, and the generated types (type-only, erased).',
      severity: 'error',
      from: { path: '^clients/school-picker/src/' },
      to: {
        pathNot: ['^clients/school-picker/src/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'school-picker-types-from-the-contract-only',
      comment: 'The picker knows the API through the generated types alone.',
      severity: 'error',
      from: { path: '^clients/school-picker/src/' },
      to: { pathNot: ['^clients/school-picker/src/', '^generated/types[.]gen[.]ts$'] },
    },
    {
      name: 'dashboard-is-a-browser-client',
      comment:
        'src/dashboard is browser code (bundled by src/http/routes/dashboard-assets.ts): it reaches the server only ' +
        'through the generated client, like any other client, and imports nothing of the server or Node.',
      severity: 'error',
      from: { path: '^src/dashboard/' },
      to: { pathNot: ['^src/dashboard/', '^generated/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'stores-not-to-http',
      comment: 'A store adapter knows nothing about HTTP.',
      severity: 'error',
      from: { path: '^src/stores/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'stores-own-their-configuration',
      comment:
        'A store adapter is handed its settings (src/stores/store.config.ts); it does not read the process configuration ' +
        '(src/config.ts), which sits above both the HTTP layer and the stores.',
      severity: 'error',
      from: { path: '^src/stores/' },
      to: { path: '^src/(config|logger)[.]ts$' },
    },
    {
      name: 'http-not-to-stores',
      comment: 'Handlers reach persistence through the domain and its ports, never through an adapter.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/stores/' },
    },
    {
      name: 'stores-only-from-composition-roots',
      comment:
        'Only the composition root picks a store adapter: src/composition (for src/main.ts, the command line ' +
        'and the benchmark), and scripts and tests. Everything else is handed a Store (the port).',
      severity: 'error',
      from: { pathNot: ['^src/composition/', '^scripts/', '^test/', '^src/stores/'] },
      // Their settings (a type) are not an adapter: the configuration reads them from the environment.
      to: { path: '^src/stores/', pathNot: '^src/stores/store[.]config[.]ts$' },
    },
    {
      name: 'prometheus-only-in-its-adapter',
      comment:
        'prom-client is an adapter of the Metrics port (src/metrics/metrics.port.ts): only ' +
        'src/metrics/prometheus.metrics.ts imports it. The HTTP layer and the services report through the port.',
      severity: 'error',
      from: { pathNot: '^src/metrics/prometheus[.]metrics[.]ts$' },
      to: { path: '(^|/)node_modules/prom-client/' },
    },
    {
      name: 'pretty-logs-only-in-the-logger',
      comment:
        "pino-pretty formats the server's logs for a terminal (src/log-pretty.ts, which src/logger.ts loads when that form is chosen); nothing else picks an output format.",
      severity: 'error',
      from: { pathNot: '^src/log-pretty[.]ts$' },
      to: { path: '(^|/)node_modules/pino-pretty/' },
    },
    {
      name: 'tools-not-to-tests',
      comment:
        'Tools (scripts/: bench, soak, fuzz, FerretDB, clients) run without the test tree: what a tool and the tests ' +
        'both need (starting FerretDB, a browser, the mingo stand-in) lives with the tool, and the tests import it.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment:
        'Modules that import each other, directly or through others, cannot be understood or moved alone. ' +
        'generated/ is exempt: it is never edited by hand (its client has a type-level cycle).',
      severity: 'error',
      from: { pathNot: '^generated/' },
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A module in src that imports nothing and that nothing imports is dead or forgotten.',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: '[.]d[.]ts$' },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import that does not resolve to a file would silently escape every rule above (and fails at ' +
        'run time): fix the path or the package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The client package's consumers import it by its published name, installed only in the
    // scratch project `npm run test:clients` makes.
    exclude: { path: '^scripts/clients/ts-consumer/' },
    // Without this, `import type` lines vanish before the rules see them.
    tsPreCompilationDeps: true,
    // allowImportingTsExtensions + nodenext: imports name the `.ts` file itself.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['types', 'typings', 'module', 'main'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
