import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The lessons as their files say (lessons/NN-id/lesson.toml, en.toml, zh.toml), read the
// simple way the files are written (one `key = "…"` per line), for the specs that walk
// every lesson: their steps, pages, predict steps, pointed figures and titles.

const root = fileURLToPath(new URL('../../lessons/', import.meta.url));

export type LessonStep = { id: string; page: string; predict: boolean; figures: string[] };
export type LessonFile = {
  id: string;
  steps: LessonStep[];
  /** Per language, each step's title by step id, and the lesson's under `$lesson`. */
  titles: Record<string, Record<string, string>>;
};

/** A TOML string on one line: `key = "…"`. */
const stringValue = (line: string) => JSON.parse(line.slice(line.indexOf('=') + 1).trim());

export function lessonFiles(): LessonFile[] {
  return readdirSync(root)
    .filter((d) => /^\d\d-/.test(d))
    .sort()
    .map((folder) => {
      const file = (name: string) => readFileSync(join(root, folder, name), 'utf8');
      const steps: LessonStep[] = [];
      for (const line of file('lesson.toml').split('\n')) {
        if (/^\[\[steps\]\]/.test(line)) steps.push({ id: '', page: '', predict: false, figures: [] });
        const step = steps[steps.length - 1];
        if (!step) continue;
        if (/^id\s*=/.test(line)) step.id = stringValue(line);
        else if (/^page\s*=/.test(line)) step.page = stringValue(line);
        else if (/^kind\s*=/.test(line)) step.predict = stringValue(line) === 'predict';
        else if (/^point\s*=/.test(line)) step.figures = [...line.matchAll(/figure = "([^"]+)"/g)].map((m) => m[1]);
      }
      const titles: Record<string, Record<string, string>> = {};
      for (const lang of ['en', 'zh']) {
        titles[lang] = {};
        let step = '';
        for (const line of file(`${lang}.toml`).split('\n')) {
          const header = line.match(/^\[steps\.([\w-]+)\]/);
          if (header) step = header[1];
          else if (/^title\s*=/.test(line)) titles[lang][step || '$lesson'] = stringValue(line);
        }
      }
      return { id: folder.replace(/^\d\d-/, ''), steps, titles };
    });
}
