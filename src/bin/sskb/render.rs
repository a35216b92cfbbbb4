//! `sskb render`: a model meshed as `convert` meshes it, drawn to PNG; one
//! file, or many into a directory.

use std::io::Write;
use std::path::{Path, PathBuf};

use sskb::render::{Background, ColorBy, Drawn, Picture, RenderOptions, Scene, View};
use sskb::Error;

use crate::cli::{input_format, Format};
use crate::inout::{error_line, Failure, Output};
use crate::{batch, mesh, report};

/// What every input shares.
pub struct RenderJob {
    pub from: Option<Format>,
    pub resolution: u32,
    /// One or more views; more than one gives a file each, or one sheet.
    pub views: Vec<View>,
    pub sheet: bool,
    /// Size, projection, background, colouring (its view is replaced by
    /// each of `views`).
    pub options: RenderOptions,
}

impl RenderJob {
    /// The pictures of one input: one per view, or the sheet of them.
    fn draw(&self, input: &str, from: Format) -> Result<Vec<Picture>, Failure> {
        let scene = if from.is_mesh_input() {
            // A mesh file (glTF, STL, OBJ) is drawn as it is.
            let source = sskb::import::read_mesh_file(Path::new(input))?;
            Scene::new(vec![Drawn {
                id: 0,
                mode: sskb::Mode::Add,
                mesh: source.mesh,
            }])
        } else {
            let mesher = mesh::mesher(input, from, self.resolution)?;
            mesh::combining(&mesher, || Scene::from_mesher(&mesher))?
        };
        let pictures = self
            .views
            .iter()
            .map(|&view| scene.render(&RenderOptions { view, ..self.options }))
            .collect::<Result<Vec<_>, Error>>()?;
        if self.sheet {
            let columns = (pictures.len() as f64).sqrt().ceil() as u32;
            return Ok(vec![Picture::sheet(&pictures, columns, self.options.background)?]);
        }
        Ok(pictures)
    }

    /// The files the pictures of `output` go to: itself, or with several
    /// views `NAME.VIEW.png` beside it.
    fn outputs(&self, output: &Path) -> Vec<PathBuf> {
        if self.views.len() == 1 || self.sheet {
            return vec![output.to_path_buf()];
        }
        self.views
            .iter()
            .map(|v| output.with_extension(format!("{}.png", v.name())))
            .collect()
    }

    /// Draws `input` and writes its pictures, each file whole or not at
    /// all.
    fn run(&self, input: &str, from: Format, output: &Path) -> Result<(), Failure> {
        let pictures = self.draw(input, from)?;
        for (picture, path) in pictures.iter().zip(self.outputs(output)) {
            let png = picture.to_png()?;
            let mut out = Output::create(&path.to_string_lossy())?;
            out.writer.write_all(&png).map_err(Error::from)?;
            out.commit()?;
        }
        Ok(())
    }
}

/// `render MODEL OUT.png`.
pub fn render(job: &RenderJob, input: &str, output: &str) -> u8 {
    let from = match job.from.map(Ok).unwrap_or_else(|| input_format(input)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}", error_line(input, &e));
            return 2;
        }
    };
    if output == "-" && job.outputs(Path::new(output)).len() > 1 {
        eprintln!("error: several views go to several files: give OUT.png, or --sheet for one picture");
        return 2;
    }
    report(input, job.run(input, from, Path::new(output)))
}

/// `render --out-dir DIR INPUT...`: each input's pictures into DIR, in
/// parallel.
pub fn render_into(job: &RenderJob, dir: &Path, jobs: usize, inputs: &[String]) -> u8 {
    batch::into_dir(dir, jobs, inputs, job.from, "png", "rendered", |input, from, out| {
        job.run(input, from, out)
    })
}

/// The views of `--views` (one value: clap would take a `Vec` for many).
#[derive(Clone, Debug, PartialEq)]
pub struct Views(pub Vec<View>);

/// `--views`: names and `AZ,EL` pairs, comma-separated
/// (`iso,front,30,20`: the numbers pair up).
pub fn parse_views(s: &str) -> Result<Views, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let mut views = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        let p = parts[k];
        if p.parse::<f64>().is_ok() {
            let e = parts
                .get(k + 1)
                .ok_or_else(|| format!("`{s}`: the azimuth {p} has no elevation after it"))?;
            views.push(format!("{p},{e}").parse()?);
            k += 2;
        } else {
            views.push(p.parse()?);
            k += 1;
        }
    }
    if views.is_empty() {
        return Err("no views".to_owned());
    }
    Ok(Views(views))
}

/// `--background`.
pub fn parse_background(s: &str) -> Result<Background, String> {
    s.parse()
}

/// `--color-by`.
pub fn parse_color_by(s: &str) -> Result<ColorBy, String> {
    s.parse()
}

/// `--view`.
pub fn parse_view(s: &str) -> Result<View, String> {
    s.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_pair_their_numbers() {
        let v = parse_views("iso, 30,20 ,top").unwrap().0;
        assert_eq!(
            v,
            vec![
                View::Iso,
                View::Angles {
                    azimuth: 30.0,
                    elevation: 20.0
                },
                View::Top
            ]
        );
        assert!(parse_views("iso,30").is_err());
        assert!(parse_views("iso,sideways").is_err());
    }
}
