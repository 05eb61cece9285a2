// The image `image_url` points at when a directory has no logo: the initials of the school's
// name on a colour derived from its id (so each school keeps its colour).
import { createHash } from 'node:crypto';

const SKIP = new Set(['of', 'the', 'and', 'at', 'in', 'for', 'de', 'la', 'le', 'du', 'des', 'et', '&', '-']);

export function initials(name: string): string {
  const words = name.split(/[\s/,-]+/).filter((w) => w && !SKIP.has(w.toLowerCase()));
  const letters = words.map((w) => [...w.replace(/[^\p{L}\p{N}]/gu, '')][0] ?? '').filter(Boolean);
  return (letters.slice(0, 3).join('') || '?').toUpperCase();
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function monogramSvg(id: string, name: string): string {
  const hue = createHash('sha256').update(id).digest()[0]! * (360 / 256);
  const text = escapeXml(initials(name));
  const size = text.length > 2 ? 40 : 52;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img">' +
    `<title>${escapeXml(name)}</title>` +
    `<rect width="128" height="128" rx="16" fill="hsl(${hue.toFixed(0)} 45% 38%)"/>` +
    `<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="${size}" fill="#fff">${text}</text>` +
    '</svg>'
  );
}
