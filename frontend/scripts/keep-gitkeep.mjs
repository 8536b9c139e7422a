// vite build empties dist/; frontend/embed.go needs dist/ to exist on a
// fresh clone, so the tracked placeholder is recreated after every build.
import { writeFileSync } from 'node:fs';
writeFileSync(new URL('../dist/.gitkeep', import.meta.url), '');
