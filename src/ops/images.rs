//! Decoding, resizing and encoding images for pi's `resizeImage`,
//! `convertToPng` and the read tool (js/pi/coding-agent/image-resize.js),
//! which pi does with Photon, a WebAssembly build of a Rust library on the
//! `image` crate: decoded to RGBA, turned upright by the EXIF orientation of
//! JPEG and WebP files, resized with a Lanczos3 filter, encoded as PNG or as
//! JPEG of a given quality. The strategy (which sizes and qualities to try,
//! when to stop) is pi's and stays in JavaScript.
//!
//! The work runs on tokio's blocking pool, so a large image never stalls the
//! isolate's event loop; a decoded image is a resource, so trying several
//! sizes decodes it once.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::Cursor;
use std::rc::Rc;
use std::sync::Arc;

use deno_core::parking_lot::Mutex;
use deno_core::{OpState, Resource, ResourceId, op2};
use deno_error::JsErrorBox;
use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, RgbaImage};

/// An image decoded to RGBA pixels, upright, and its latest resized copy:
/// pi tries several encodings of each size.
struct Sizes {
    original: RgbaImage,
    resized: Mutex<Option<Arc<RgbaImage>>>,
}

/// A decoded image, as JavaScript holds it.
struct DecodedImage(Arc<Sizes>);

impl Resource for DecodedImage {
    fn name(&self) -> Cow<'_, str> {
        "decodedImage".into()
    }
}

impl Sizes {
    fn at_size(&self, width: u32, height: u32) -> Arc<RgbaImage> {
        let mut resized = self.resized.lock();
        match &*resized {
            Some(image) if image.dimensions() == (width, height) => image.clone(),
            _ => {
                // Photon resizes even to the same size, which filters the pixels.
                let image = Arc::new(image::imageops::resize(
                    &self.original,
                    width,
                    height,
                    FilterType::Lanczos3,
                ));
                *resized = Some(image.clone());
                image
            }
        }
    }
}

/// How to encode: `{}` for PNG, `{ jpegQuality }` for JPEG.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Encoding {
    #[serde(default)]
    jpeg_quality: Option<u8>,
}

/// What decoding gives JavaScript: the resource and the upright size.
#[derive(serde::Serialize)]
pub struct Decoded {
    rid: ResourceId,
    width: u32,
    height: u32,
}

/// Decodes PNG, JPEG, GIF (its first frame), WebP or BMP. pi reads the EXIF
/// orientation of JPEG and WebP files only, so only those are turned.
fn decode(bytes: &[u8]) -> Result<RgbaImage, String> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|error| error.to_string())?;
    let format = reader.format();
    let mut decoder = reader.into_decoder().map_err(|error| error.to_string())?;
    let orientation = match format {
        Some(ImageFormat::Jpeg | ImageFormat::WebP) => decoder.orientation().unwrap_or(Orientation::NoTransforms),
        _ => Orientation::NoTransforms,
    };
    let mut image = DynamicImage::from_decoder(decoder).map_err(|error| error.to_string())?;
    image.apply_orientation(orientation);
    Ok(image.into_rgba8())
}

/// The image as PNG, or as JPEG of `jpeg_quality` (1–100), which has no
/// alpha channel.
fn encode(image: &RgbaImage, jpeg_quality: Option<u8>) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    match jpeg_quality {
        None => image
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .map_err(|error| error.to_string())?,
        Some(quality) => {
            let rgb = DynamicImage::ImageRgba8(image.clone()).into_rgb8();
            JpegEncoder::new_with_quality(&mut bytes, quality.clamp(1, 100))
                .encode_image(&rgb)
                .map_err(|error| error.to_string())?;
        }
    }
    Ok(bytes)
}

async fn off_the_isolate<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, JsErrorBox> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| JsErrorBox::generic(error.to_string()))?
        .map_err(JsErrorBox::generic)
}

/// Decodes an image; fails with the decoder's message for bytes that are
/// not an image it reads, or one larger than the decoder's memory limit.
#[op2]
#[serde]
pub async fn op_pihost_image_decode(
    state: Rc<RefCell<OpState>>,
    #[buffer(copy)] bytes: Vec<u8>,
) -> Result<Decoded, JsErrorBox> {
    let image = off_the_isolate(move || decode(&bytes)).await?;
    let (width, height) = image.dimensions();
    let rid = state.borrow_mut().resource_table.add(DecodedImage(Arc::new(Sizes {
        original: image,
        resized: Mutex::new(None),
    })));
    Ok(Decoded { rid, width, height })
}

/// The decoded image resized to `width`×`height`, encoded as asked.
#[op2]
#[buffer]
pub async fn op_pihost_image_encode(
    state: Rc<RefCell<OpState>>,
    #[smi] rid: ResourceId,
    width: u32,
    height: u32,
    #[serde] encoding: Encoding,
) -> Result<Vec<u8>, JsErrorBox> {
    if width == 0 || height == 0 {
        return Err(JsErrorBox::type_error(format!(
            "cannot encode an image of {width}x{height} pixels"
        )));
    }
    let image = state
        .borrow()
        .resource_table
        .get::<DecodedImage>(rid)
        .map_err(JsErrorBox::from_err)?
        .0
        .clone();
    off_the_isolate(move || encode(&image.at_size(width, height), encoding.jpeg_quality)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(width: u32, height: u32) -> Vec<u8> {
        let image = RgbaImage::from_fn(width, height, |x, y| image::Rgba([x as u8, y as u8, 128, 255]));
        let mut bytes = Vec::new();
        DynamicImage::ImageRgba8(image)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("png");
        bytes
    }

    #[test]
    fn an_image_is_decoded_resized_and_encoded_in_both_formats() {
        let decoded = Sizes {
            original: decode(&png_of(40, 20)).expect("decodes"),
            resized: Mutex::new(None),
        };
        assert_eq!(decoded.original.dimensions(), (40, 20));
        let half = decoded.at_size(20, 10);
        let png = decode(&encode(&half, None).expect("encodes")).expect("the PNG decodes");
        assert_eq!(png.dimensions(), (20, 10));
        let jpeg = decode(&encode(&half, Some(80)).expect("encodes")).expect("the JPEG decodes");
        assert_eq!(jpeg.dimensions(), (20, 10));
        assert!(
            Arc::ptr_eq(&half, &decoded.at_size(20, 10)),
            "one resize serves every encoding of a size"
        );
    }

    #[test]
    fn bytes_that_are_not_an_image_fail_with_the_decoders_message() {
        let error = decode(b"certainly not an image").expect_err("fails");
        assert!(!error.is_empty());
    }
}
