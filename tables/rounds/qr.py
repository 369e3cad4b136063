"""QR codes as inline SVG (no image files, no script): the qrcode library draws, we embed."""
import io

import qrcode
import qrcode.image.svg


def qr_svg(data, box_size=8):
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=box_size, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode()
    # Drop the XML declaration so the SVG can sit inside HTML.
    return svg[svg.index("<svg"):]
