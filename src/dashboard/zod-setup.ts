// The generated client checks every answer with zod, which would probe `new Function` to compile
// its checks as soon as the first schema is defined. The page's CSP forbids eval (and Trusted
// Types report the attempt), so tell zod first. main.ts imports this before anything else: ES
// modules run in import order, and the generated schemas are defined when their module runs.
import { config } from 'zod';

config({ jitless: true });
