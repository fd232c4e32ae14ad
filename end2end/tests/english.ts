import { type Page } from '@playwright/test';

/**
 * Technical words the Chinese UI keeps as they are: names, file formats, functions,
 * keys. Everything else in English letters (three or more) is a word left untranslated.
 * Tokens, typed text, formulas and code are marked `translate="no"` (or are MathML) and
 * are not read.
 */
export const KEPT = new Set([
  'softmax', 'Softmax', 'ReLU', 'relu', 'elu', 'ELU', 'Taylor', 'taylor', 'Linformer', 'MiniLM', 'BERT',
  'PNG', 'SVG', 'CSV', 'JSON', 'CLS', 'SEP', 'PAD', 'UNK', 'npy', 'npz', 'txt', 'attnlab',
  'Transformer', 'PageUp', 'PageDown', 'Ctrl', 'GELU', 'RoPE', 'ALiBi', 'NTK', 'YaRN', 'RoFormer', 'Llama', 'Choromanski', 'argmax', 'RNN',
  'multilingual', 'small', 'all', 'WordPiece', 'SentencePiece', 'XLM', 'Cache', 'API',
  'SIMD', 'wasm', 'NumPy', 'Fortran', 'dtype', 'float', 'Space', 'Tab', 'Esc', 'Enter',
  'exp', 'log', 'min', 'max', 'sin', 'cos', 'tanh', 'Luong', 'Bahdanau',
  'logit', 'Kobayashi', 'EMNLP', 'NaN', 'UTF', 'zip', 'HTTP', 'NUL', 'pip', 'wheel',
  'RetNet', 'GLA', 'Mamba',
  'sigmoid', 'softpick', 'FAVOR', 'Performer', 'YaRN', 'NTK', 'FlashAttention', 'RoFormer', 'Llama',
  'StreamingLLM', 'Mistral', 'GPT', 'NeoX', 'Hugging', 'Face', 'ICLR', 'bloc',
  'MHA', 'GQA', 'MQA', 'MLA', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB',
]);

/**
 * The English words visible on the page (text, `aria-label`, `title`, `placeholder`,
 * `alt`, the options of selects, canvases' labels), each with where it was found:
 * `word @ data-testid-or-tag`. Hidden elements and `translate="no"` subtrees are skipped.
 * `within`: a CSS selector of the parts of the page read (the whole page by default).
 */
export async function englishLeft(page: Page, within = 'body'): Promise<string[]> {
  const found: string[] = await page.evaluate((within) => {
    const roots = [...document.querySelectorAll(within)];
    const out: string[] = [];
    const where = (el: Element) => {
      const t = el.closest('[data-testid]');
      return t ? t.getAttribute('data-testid')! : el.tagName.toLowerCase();
    };
    const skip = (el: Element) =>
      el.closest('[translate="no"], math, script, style, template') !== null;
    const visible = (el: Element) =>
      typeof (el as HTMLElement).checkVisibility === 'function'
        ? (el as HTMLElement).checkVisibility({ visibilityProperty: true } as any)
        : true;
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || skip(el) || !n.textContent!.trim()) continue;
        if (el.tagName !== 'OPTION' && !visible(el)) continue;
        out.push(`${n.textContent} @ ${where(el)}`);
      }
      const labelled = [root, ...root.querySelectorAll('[aria-label], [title], [placeholder], [alt]')];
      for (const el of labelled) {
        if (skip(el) || !visible(el)) continue;
        for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
          const v = el.getAttribute(a);
          if (v) out.push(`${v} @ ${where(el)} [${a}]`);
        }
      }
    }
    return out;
  }, within);
  const left: string[] = [];
  for (const item of found) {
    const at = item.lastIndexOf(' @ ');
    const text = item.slice(0, at);
    // A symbol with a subscript (d_model, W_Q) is a symbol, not a word.
    const words = (text.match(/[A-Za-z_]+/g) ?? []).filter((w) => !w.includes('_'));
    for (const word of words.filter((w) => w.length >= 3)) {
      if (!KEPT.has(word)) left.push(`${word} in "${text.trim().slice(0, 80)}" @ ${item.slice(at + 3)}`);
    }
  }
  return [...new Set(left)];
}
