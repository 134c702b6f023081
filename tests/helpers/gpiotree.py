"""Made-up /dev and /sys trees of GPIO chips, laid out as the kernel lays them out.

Each board is a list of (chip number, label, lines, parent device under /sys/devices).
Legacy sysfs (the layout of the kernels Raspberry Pi OS ships): /sys/bus/gpio/devices/
gpiochipN links to <parent>/gpiochipN, and the chip's label is in the class device
<parent>/gpio/gpiochipBASE (BASE: its first global GPIO number, from 512), linked from
/sys/class/gpio. Newer kernels (6.17+) add /sys/class/gpio/chipN/label.
"""

from __future__ import annotations

from pathlib import Path

Board = list[tuple[int, str, int, str]]

RP1 = "platform/axi/1000120000.pcie/1f000d0000.gpio"
BRCMSTB_A = "platform/soc/107d508500.gpio"
BRCMSTB_B = "platform/soc/107d517c00.gpio"

PI4: Board = [
    (0, "pinctrl-bcm2711", 58, "platform/soc/fe200000.gpio"),
    (1, "raspberrypi-exp-gpio", 8, "platform/soc/soc:firmware/soc:firmware:gpio"),
]
PI3: Board = [
    (0, "pinctrl-bcm2835", 54, "platform/soc/3f200000.gpio"),
    (1, "raspberrypi-exp-gpio", 8, "platform/soc/soc:firmware/soc:firmware:gpio"),
]
# Pi 5, kernels before 6.6.47: the SoC's four chips first, the RP1 (the header) fifth
PI5_CHIP4: Board = [
    (0, "gpio-brcmstb@107d508500", 32, BRCMSTB_A),
    (1, "gpio-brcmstb@107d508520", 4, BRCMSTB_A),
    (2, "gpio-brcmstb@107d517c00", 17, BRCMSTB_B),
    (3, "gpio-brcmstb@107d517c20", 6, BRCMSTB_B),
    (4, "pinctrl-rp1", 54, RP1),
]
# Pi 5 from 6.6.47: the RP1 is gpiochip0, the SoC's chips 10-13
PI5_CHIP0: Board = [
    (0, "pinctrl-rp1", 54, RP1),
    (10, "gpio-brcmstb@107d508500", 32, BRCMSTB_A),
    (11, "gpio-brcmstb@107d508520", 4, BRCMSTB_A),
    (12, "gpio-brcmstb@107d517c00", 17, BRCMSTB_B),
    (13, "gpio-brcmstb@107d517c20", 6, BRCMSTB_B),
]
# Pi 5 as 2026 reports show it: chips 11-15, the RP1 neither 0 nor 4
PI5_11_TO_15: Board = [
    (11, "gpio-brcmstb@107d508500", 32, BRCMSTB_A),
    (12, "gpio-brcmstb@107d508520", 4, BRCMSTB_A),
    (13, "pinctrl-rp1", 54, RP1),
    (14, "gpio-brcmstb@107d517c00", 17, BRCMSTB_B),
    (15, "gpio-brcmstb@107d517c20", 6, BRCMSTB_B),
]


def make(root: Path, board: Board, chip_class: bool = False,
         sysfs: bool = True) -> tuple[Path, Path]:
    """Write `board` under root; (dev, sys). `chip_class`: the 6.17+ /sys/class/gpio/chipN
    too; `sysfs=False`: the device nodes only (a /sys that says nothing)."""
    dev, sys = root / "dev", root / "sys"
    dev.mkdir(parents=True)
    (sys / "class/gpio").mkdir(parents=True)
    (sys / "bus/gpio/devices").mkdir(parents=True)
    base = 512
    for number, label, lines, parent in board:
        (dev / f"gpiochip{number}").write_text("")  # not a chip: its ioctl fails
        if not sysfs:
            continue
        device = sys / "devices" / parent
        (device / f"gpiochip{number}").mkdir(parents=True)
        (sys / "bus/gpio/devices" / f"gpiochip{number}").symlink_to(
            device / f"gpiochip{number}")
        legacy = device / "gpio" / f"gpiochip{base}"
        legacy.mkdir(parents=True)
        for name, value in (("label", label), ("ngpio", lines), ("base", base)):
            (legacy / name).write_text(f"{value}\n")
        (sys / "class/gpio" / f"gpiochip{base}").symlink_to(legacy)
        if chip_class:
            chip = sys / "class/gpio" / f"chip{number}"
            chip.mkdir()
            (chip / "label").write_text(f"{label}\n")
            (chip / "ngpio").write_text(f"{lines}\n")
        base += lines
    return dev, sys
