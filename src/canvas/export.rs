//! Every heatmap as a file: PNG at twice the page's resolution and SVG, both drawn by the
//! same plot function as the canvas (not a screenshot of it), the matrix as CSV and
//! JSON with its token labels, and the PNG copied to the clipboard where the browser
//! allows it. File names say what they hold (`attnlab_formats::export::file_name`).

use attnlab_formats::export::{self, Labelled};
use attnlab_plot::{HeadGrid, Heatmap, LineChart, TokenLines};
use js_sys::{Array, Object, Reflect};
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

use crate::i18n::{Lang, Tr, text, use_lang};
use attnlab_i18n::msg::formats;
use attnlab_paint::{offscreen_grid, offscreen_heatmap, offscreen_line_chart, offscreen_lines};

/// Why a file could not be made: a sentence in every language, or the words of the
/// code that refused (a file writer's error, already in the page's language).
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// A fixed sentence.
    Said(Tr),
    /// Another error's own words.
    Raw(String),
    /// A sentence with the words of the error in it, in every language.
    Both(attnlab_i18n::Said),
}

impl From<attnlab_i18n::Said> for Failure {
    fn from(e: attnlab_i18n::Said) -> Failure {
        Failure::Both(e)
    }
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Raw(e)
    }
}

impl From<Tr> for Failure {
    fn from(e: Tr) -> Failure {
        Failure::Said(e)
    }
}

impl Failure {
    fn text(&self, lang: Lang) -> String {
        match self {
            Failure::Said(t) => t.get(lang).to_string(),
            Failure::Raw(e) => e.clone(),
            Failure::Both(s) => s.get(lang).to_string(),
        }
    }
}

/// What the menu last did, shown in the page's language.
#[derive(Debug, Clone, PartialEq)]
enum Said {
    Nothing,
    Saved(String),
    SavedTensors(String),
    Copied,
    Failed(Failure),
}

impl Said {
    /// What the menu says in `lang`: the words around a file's name, which is shown as
    /// it is.
    fn parts(&self, lang: Lang) -> (String, Option<String>, String) {
        let plain = |s: &str| (s.to_string(), None, String::new());
        let saved = formats::EXPORT_SAVED.get(lang).to_string();
        match self {
            Said::Nothing => plain(""),
            Said::Saved(name) => (
                saved,
                Some(name.clone()),
                formats::EXPORT_SAVED_END.get(lang).into(),
            ),
            Said::SavedTensors(name) => (
                saved,
                Some(name.clone()),
                formats::ExportSavedTensorsEnd { name }.say(lang),
            ),
            Said::Copied => plain(formats::EXPORT_COPIED.get(lang)),
            Said::Failed(why) => plain(
                &formats::ExportFailed {
                    why: &why.text(lang),
                }
                .say(lang),
            ),
        }
    }
}

const NO_FILE: Tr = formats::EXPORT_NO_FILE;
const NO_URL: Tr = formats::EXPORT_NO_URL;
const NO_LINK: Tr = formats::EXPORT_NO_LINK;
const NO_PNG: Tr = formats::EXPORT_NO_PNG;
const NO_COPY: Tr = formats::EXPORT_NO_COPY;
const NO_FIGURE: Tr = formats::EXPORT_NO_FIGURE;

/// Every head of a variant (or every head of a model) as small multiples.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// What the file is called after.
    pub title: String,
    /// One figure per head.
    pub heads: Vec<Heatmap>,
    /// Each head's label (`head 2`, `L3 H5`).
    pub labels: Vec<String>,
    /// The columns, if fixed (the atlas: one row per layer).
    pub columns: Option<usize>,
    /// The outlined head.
    pub selected: usize,
}

impl Grid {
    fn plot(&self) -> HeadGrid<'_> {
        let grid = HeadGrid::new(&self.heads)
            .with_selected(self.selected)
            .with_tile_titles(&self.labels);
        match self.columns {
            Some(c) => grid.with_columns(c),
            None => grid,
        }
    }
}

/// A figure that can be exported.
#[derive(Debug, Clone, PartialEq)]
pub enum Exported {
    /// A heatmap.
    Heatmap(Heatmap),
    /// A line chart.
    Chart(LineChart),
    /// Small multiples of heads.
    Grid(Grid),
    /// The token-to-token lines.
    Lines(TokenLines),
}

/// A matrix of a grid or of the lines: its label, row and column labels, and cells.
type OwnedMatrix = (String, Vec<String>, Vec<String>, Vec<Option<f32>>);

/// Every cell of `h`, row-major (`None`: blocked).
fn cells(h: &Heatmap) -> Vec<Option<f32>> {
    (0..h.n_rows())
        .flat_map(|i| (0..h.n_cols()).map(move |j| h.value(i, j)))
        .collect()
}

impl Exported {
    fn title(&self) -> &str {
        match self {
            Exported::Heatmap(h) => h.title(),
            Exported::Chart(c) => &c.title,
            Exported::Grid(g) => &g.title,
            Exported::Lines(l) => l.title(),
        }
    }

    /// The matrices of a grid or of the lines: (value name, each matrix's cells).
    fn matrices(&self) -> (String, Vec<OwnedMatrix>) {
        match self {
            Exported::Grid(g) => (
                g.heads
                    .first()
                    .map_or("weight".into(), |h| h.value_label().to_string()),
                g.heads
                    .iter()
                    .zip(&g.labels)
                    .map(|(h, label)| {
                        let (rows, cols) = (h.row_labels().to_vec(), h.col_labels().to_vec());
                        (label.clone(), rows, cols, cells(h))
                    })
                    .collect(),
            ),
            Exported::Lines(l) => (
                "weight".into(),
                l.heads()
                    .iter()
                    .map(|h| {
                        let values = h.weights.iter().map(|&w| Some(w)).collect();
                        (
                            h.label.clone(),
                            l.queries().to_vec(),
                            l.keys().to_vec(),
                            values,
                        )
                    })
                    .collect(),
            ),
            _ => (String::new(), Vec::new()),
        }
    }

    /// A grid's or the lines' matrices as CSV (`json`: false) or JSON.
    fn matrices_text(&self, json: bool) -> Result<String, String> {
        let (value, owned) = self.matrices();
        let list: Vec<Labelled<'_>> = owned
            .iter()
            .map(|(label, rows, cols, values)| Labelled {
                label,
                rows,
                cols,
                values,
            })
            .collect();
        if json {
            export::matrices_json(self.title(), &value, &list)
        } else {
            export::matrices_csv(&value, &list)
        }
    }

    /// The text of the file `ext` (svg, csv, json) at `size` CSS pixels.
    fn text(&self, ext: &str, (width, height): (f64, f64)) -> Result<String, Failure> {
        let size = (width.round() as u32, height.round().max(1.0) as u32);
        match (self, ext) {
            (Exported::Heatmap(h), "svg") => attnlab_plot::export::heatmap_svg(h, size.0),
            (Exported::Heatmap(h), "csv") => export::csv(h),
            (Exported::Heatmap(h), _) => export::json(h),
            (Exported::Chart(c), "svg") => attnlab_plot::export::line_chart_svg(c, size),
            (Exported::Chart(c), "csv") => export::chart_csv(c),
            (Exported::Chart(c), _) => export::chart_json(c),
            (Exported::Grid(g), "svg") => {
                attnlab_plot::export::head_grid_svg(&g.plot(), &g.title, size)
            }
            (Exported::Lines(l), "svg") => attnlab_plot::export::token_lines_svg(l, size),
            (Exported::Grid(_) | Exported::Lines(_), ext) => self.matrices_text(ext == "json"),
        }
        // A writer's own words are English: said whole in English, named in Chinese.
        .map_err(|e| {
            Failure::Both(attnlab_i18n::Said::new(
                formats::ExportWriteFailed {
                    ext: &ext,
                    error: &e,
                }
                .say(Lang::En),
                formats::ExportWriteFailed {
                    ext: &ext.to_uppercase(),
                    error: &e,
                }
                .say(Lang::Zh),
            ))
        })
    }

    /// Drawn on a detached canvas at `size` CSS pixels (a heatmap at its natural
    /// height) and [`PNG_SCALE`].
    fn offscreen(
        &self,
        (width, height): (f64, f64),
    ) -> Result<web_sys::HtmlCanvasElement, Failure> {
        Ok(match self {
            Exported::Heatmap(h) => offscreen_heatmap(h, width, PNG_SCALE),
            Exported::Chart(c) => offscreen_line_chart(c, (width, height), PNG_SCALE),
            Exported::Grid(g) => offscreen_grid(&g.plot(), (width, height), PNG_SCALE),
            Exported::Lines(l) => offscreen_lines(l, (width, height), PNG_SCALE),
        }?)
    }
}

/// Makes, on demand, a file of the input behind a figure: its name and its text, or why
/// there is none in the language given.
pub type FileMaker = Callback<Lang, Result<(String, String), String>>;

/// The PNG's device pixels per CSS pixel.
const PNG_SCALE: f64 = 2.0;
/// The width of a file drawn from a canvas that has none yet (CSS pixels).
const FALLBACK_WIDTH: f64 = 900.0;

fn blob(text: &str, mime: &str) -> Result<Blob, Failure> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    Blob::new_with_str_sequence_and_options(&Array::of1(&JsValue::from_str(text)), &options)
        .map_err(|_| NO_FILE.into())
}

/// Offers `blob` as a download called `name`.
fn download(blob: &Blob, name: &str) -> Result<(), Failure> {
    let url = Url::create_object_url_with_blob(blob).map_err(|_| Failure::Said(NO_URL))?;
    let anchor: HtmlAnchorElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|e| e.dyn_into().ok())
        .ok_or(Failure::Said(NO_LINK))?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

/// The PNG of `figure` (at [`PNG_SCALE`]), handed to `then` as a Blob.
fn png(figure: &Exported, size: (f64, f64), then: impl FnOnce(Result<Blob, Failure>) + 'static) {
    let canvas = match figure.offscreen(size) {
        Ok(c) => c,
        Err(e) => return then(Err(e)),
    };
    let callback = Closure::once_into_js(move |b: JsValue| {
        then(b.dyn_into::<Blob>().map_err(|_| Failure::Said(NO_PNG)))
    });
    if canvas.to_blob(callback.unchecked_ref()).is_err() {
        // The closure is dropped by the browser; nothing else to tell.
    }
}

/// Copies `blob` (a PNG) to the clipboard; says why not when the browser refuses.
async fn copy(blob: Blob) -> Result<(), Failure> {
    let refused = || Failure::Said(NO_COPY);
    let clipboard = web_sys::window()
        .ok_or_else(refused)?
        .navigator()
        .clipboard();
    let items = Object::new();
    Reflect::set(&items, &"image/png".into(), &blob).map_err(|_| refused())?;
    let item = web_sys::ClipboardItem::new_with_record_from_str_to_blob_promise(&items)
        .map_err(|_| refused())?;
    wasm_bindgen_futures::JsFuture::from(clipboard.write(&Array::of1(&item)))
        .await
        .map(|_| ())
        .map_err(|_| refused())
}

/// `figure` as an SVG, CSV or JSON file. The writers (plotters' SVG backend, the CSV and
/// JSON layouts) are a module of their own, fetched at the first such export (`#[lazy]`).
#[lazy]
fn figure_text(figure: Exported, ext: &'static str, size: (f64, f64)) -> Result<String, Failure> {
    figure.text(ext, size)
}

/// "Export" under a heatmap: PNG (2×), SVG, CSV, JSON, copy image.
#[component]
pub fn ExportMenu(
    /// The figure exported.
    #[prop(into)]
    figure: Signal<Option<Exported>>,
    /// The canvas that shows it (its width sets the files' width).
    canvas: NodeRef<Canvas>,
    /// Prefix of the buttons' test ids.
    #[prop(into)]
    testid: Signal<String>,
    /// The input behind the figure as an `attnlab-tensors/1` document: (file name, text).
    tensors: Option<FileMaker>,
    /// The `attnlab render` command that draws the same figure.
    command: Option<Signal<String>>,
) -> impl IntoView {
    let lang = use_lang();
    let said = RwSignal::new(Said::Nothing);
    // The canvas's size on the page (CSS pixels): the files are drawn at it.
    let size = move || {
        canvas
            .get_untracked()
            .map(|c| (c.client_width() as f64, c.client_height() as f64))
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .unwrap_or((FALLBACK_WIDTH, FALLBACK_WIDTH * 0.6))
    };
    let report = move |r: Result<Said, Failure>| {
        said.set(r.unwrap_or_else(Said::Failed));
    };
    let text_file = move |ext: &'static str, mime: &'static str| {
        let Some(f) = figure.get_untracked() else {
            return report(Err(NO_FIGURE.into()));
        };
        let name = export::file_name(f.title(), ext);
        let size = size();
        leptos::task::spawn_local(async move {
            let text = figure_text(f, ext, size).await;
            report(
                text.and_then(|t| blob(&t, mime))
                    .and_then(|b| download(&b, &name))
                    .map(|()| Said::Saved(name)),
            );
        });
    };
    let save_png = move |_| {
        figure.with_untracked(|f| {
            let Some(f) = f else { return };
            let name = export::file_name(f.title(), "png");
            png(f, size(), move |b| {
                report(
                    b.and_then(|b| download(&b, &name))
                        .map(|()| Said::Saved(name)),
                )
            });
        })
    };
    let copy_png = move |_| {
        figure.with_untracked(|f| {
            let Some(f) = f else { return };
            png(f, size(), move |b| {
                leptos::task::spawn_local(async move {
                    let r = match b {
                        Ok(b) => copy(b).await.map(|()| Said::Copied),
                        Err(e) => Err(e),
                    };
                    report(r);
                });
            });
        })
    };
    let save_tensors = move |_| {
        let Some(tensors) = tensors else { return };
        let made = tensors.run(lang.get_untracked()).map_err(Failure::Raw);
        report(made.and_then(|(name, text)| {
            blob(&text, "application/json")
                .and_then(|b| download(&b, &name))
                .map(|()| Said::SavedTensors(name))
        }));
    };
    let id = move |what: &str| format!("{}-export-{what}", testid.get());
    // The command holds the whole state's link: built only while the menu is open, not on
    // every change of the state.
    let open = RwSignal::new(false);
    view! {
        <details class="export" data-testid=move || id("menu")
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
                open.set(el.is_some_and(|d| d.open()));
            }>
            <summary>{text(formats::EXPORT_MENU)}</summary>
            <div class="export-buttons">
                <button type="button" data-testid=move || id("png") on:click=save_png title=text(formats::EXPORT_PNG_TITLE)>"PNG"</button>
                <button type="button" data-testid=move || id("svg") on:click=move |_| text_file("svg", "image/svg+xml")>"SVG"</button>
                <button type="button" data-testid=move || id("csv") on:click=move |_| text_file("csv", "text/csv")>"CSV"</button>
                <button type="button" data-testid=move || id("json") on:click=move |_| text_file("json", "application/json")>"JSON"</button>
                <button type="button" data-testid=move || id("copy") on:click=copy_png>{text(formats::EXPORT_COPY)}</button>
                {tensors.is_some().then(|| view! {
                    <button type="button" data-testid=move || id("tensors") on:click=save_tensors
                        title=text(formats::EXPORT_TENSORS_TITLE)>
                        <span translate="no">"Q, K, V (attnlab-tensors)"</span></button>
                })}
                <span class="hint" role="status" data-testid=move || id("status")>{move || said.with(|s| {
                    let (before, name, after) = s.parts(lang.get());
                    view! { {before}<span translate="no">{name}</span>{after} }
                })}</span>
            </div>
            {command.map(|c| view! {
                <p class="export-command">{text(formats::EXPORT_COMMAND)}
                    <code translate="no" data-testid=move || id("command")>{move || open.get().then(|| c.get())}</code></p>
            })}
        </details>
    }
}
