import { type Page } from '@playwright/test';
import { englishLeft } from './english';
import { file, npy, type Upload } from './files';
import { expect, test, toChinese } from './fixtures';

// In 中文, a refused file and a damaged link are said wholly in Chinese: the reader's
// detail (serde's, the .npy header's) too, not only the sentence around it. File names
// and a field's path are names, shown as they are (translate="no").
//
// DOM contract: input[data-testid=bring-input], [data-testid=bring-error],
// [data-testid=notice].

const f32 = (values: number[]) => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((x, i) => b.writeFloatLE(x, 4 * i));
  return b;
};

/** q, k and v of one head of 2 tokens, with `q` replaced. */
const withQ = (q: Buffer): Upload[] => [
  file('q.npy', q),
  file('k.npy', npy('<f4', [2, 2], f32([1, 0, 0, 1]))),
  file('v.npy', npy('<f4', [2, 2], f32([1, 2, 3, 4]))),
];

async function refusedInChinese(page: Page, files: Upload[], says: RegExp | string) {
  await page.getByTestId('bring-input').setInputFiles(files);
  const error = page.getByTestId('bring-error');
  await expect(error).toContainText(says);
  expect(await englishLeft(page, '[data-testid=bring-error]'), await error.innerText()).toEqual([]);
}

test('a malformed attnlab-tensors/1 JSON and a bad .npy are refused in 中文 only', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  const good = npy('<f4', [2, 2], f32([1, 2, 3, 4]));
  const cut = npy('<f4', [2, 2], f32([1, 2, 3, 4]));
  const cases: [Upload[], RegExp | string][] = [
    [[file('a.json', '{"heads":[{"q":[[1]]')], /a\.json：不是有效的 JSON（第 1 行第 \d+ 列：对象还没有结束/],
    [[file('a.json', '{"heads":[{"q":[[1]], "k" [[1]]}]}')], '此处应为冒号'],
    [[file('a.json', '{"heads":[{"q":[["x"]],"k":[[1]],"v":[[1]]}]}')], 'heads[0].q[0][0]：类型不对：是字符串 "x"，应为数'],
    [[file('a.json', '{"heads":[{"q":[[1,2],[3]],"k":[[1,2]],"v":[[1]]}]}')], '应有 2 个数，实有 1 个'],
    [[file('a.json', '{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"q":[[2]]}]}')], '出现了两次'],
    [[file('a.json', '{"heads":[{"q":[[1e999]],"k":[[1]],"v":[[1]]}]}')], /超出 f32 的范围/],
    [[file('a.json', '{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"global":[0,-1]}}')], '值不合法：是整数 `-1`，应为非负整数'],
    [withQ(npy('<i4', [2, 2], Buffer.alloc(16))), 'q.npy：dtype 为 <i4'],
    [withQ(good.subarray(0, 20)), 'q.npy：被截断或已损坏：其文件头声明长度为 118 字节，而文件只有 20 字节'],
    [withQ(cut.subarray(0, cut.length - 3)), 'q.npy：被截断了'],
    [withQ(npy('<f4', [2, 2], f32([1, NaN, 3, 4]))), 'q.npy：元素 [0, 1] 是 NaN'],
    [withQ(Buffer.from('PK\x03\x04 not npy', 'latin1')), '不是 NumPy 的 .npy 文件'],
  ];
  for (const [files, says] of cases) await refusedInChinese(page, files, says);
  // The same refusal is in English after a switch.
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('bring-error')).toContainText('q.npy: is not a NumPy .npy file');
});

test('a damaged link is said in 中文, its detail too', async ({ page }) => {
  const notice = page.getByTestId('notice');
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const cases: [string, string][] = [
    [`v1.${b64('{"t":"a cat","d":"x"}')}`, '无法读取这个链接中的状态（类型不对：是字符串 "x"，应为非负整数）'],
    [`v1.${b64('{"t":"a cat","h":true}')}`, '无法读取这个链接中的状态（类型不对：是布尔值（真），应为非负整数）'],
    [`v1.${b64('{{{')}`, '无法读取这个链接中的状态（它不是有效的 JSON）'],
    [`v1.${b64('{"t":"a cat"')}`, '（它被截断了）'],
    ['v1.@@@junk', '这个链接中的状态已损坏'],
  ];
  for (const [fragment, says] of cases) {
    await page.goto('about:blank');
    await page.goto(`/#${fragment}&lang=zh`);
    await expect(notice).toContainText(says);
    expect(await englishLeft(page, '[data-testid=notice]'), await notice.innerText()).toEqual([]);
  }
  await page.getByTestId('lang-en').click();
  await expect(notice).toContainText('The state in this link is damaged');
});
