// An emulated Raspberry Pi Pico for the pico tests: rp2040js (npm) runs the stock MicroPython
// UF2 with the firmware's files on its littlefs, behind a bootrom of our own (bootrom.mjs).
//
//   node emu.mjs --uf2 FILE --fs IMAGE [--fs-offset 0xA0000] [--led-pins 2,3,4,5]
//                [--row-pins 6,7,8,9] [--pull-up 10,11,12,13,14,15]
//
// stdin and stdout carry JSON lines. In: {"id": n, "op": ...} requests, answered by
// {"id": n, ...} (see handle()): serial (bytes from the host), press (keys held, as [row pin,
// column pin] pairs; with ms, let go after that long on the emulated clock), pixels and history (the frames decoded on a pin), scans (when the key matrix was scanned), time (emulated µs),
// uart (bytes into a UART's RX), together (several requests at one instant; serial and press
// take after_ms), hang, unplug, plug, watchdog, scratch, peek, lookups, power (a
// power cycle: a new chip at time 0, with another littlefs image if given), off, quit. Out, besides the answers:
// {"ev": "serial", "data": base64, "us": t} (the USB CDC bytes the firmware wrote),
// {"ev": "reset", "reason": ..., "us": t}, {"ev": "usb", "state": "connected"}, {"ev": "log"}.
//
// Things this harness does that rp2040js does not do by itself:
// - the state machines are stepped inside the CPU loop, in time: each instruction takes its
//   (1 + delay) cycles of the state machine's clock divider (rp2040js's own pacing runs 1,000
//   PIO steps per timer tick, ignoring dividers and delays, and starves a 4-word TX FIFO);
// - the watchdog resets the chip: a new RP2040 with the same flash, so no alarm re-fires;
// - the key matrix's column pins (--pull-up) read high only while the firmware has the pad's
//   pull-up on (the board has no resistors of its own: the Pico's are the only pull-ups), and
//   low when a pressed key joins them to a row the firmware drives low; with the pull-up off
//   (a pull-down, or none) they read low, as an undriven pin does in rp2040js;
// - the WS2812 bit stream on each LED pin is decoded from the pin's edges into GRB pixels;
// - a UART's TX interrupt rises once a byte is sent, not at every check (an interrupt storm).

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, GPIOPinState } from 'rp2040js';
import { Bootrom } from './bootrom.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const FS_OFFSET = Number(args['fs-offset'] ?? 0xa0000);
const PULL_UPS = (args['pull-up'] ?? '').split(',').filter(Boolean).map(Number);
const LED_PINS = (args['led-pins'] ?? '2,3,4,5').split(',').filter(Boolean).map(Number);
const WAIT_TX_FIFO = 3; // rp2040js's WaitType: a pull, an out with autopull, on an empty TX FIFO
const WAIT_OUT = 5;
const UART_DR = 0x0; // the PL011's data register and its TX interrupt bit
const UART_TX_INTR = 1 << 5;
const WS2812_ONE_NS = 600; // a high pulse longer than this is a 1 (WS2812: T0H 0.4 us, T1H 0.8 us)
const WS2812_LATCH_NS = 50_000; // low this long ends a frame
const HOST_BUFFER = 1 << 20; // bytes the host holds for the device (see connectUsb)
const SCAN_GAP_NS = 500_000; // rows driven low closer than this are one scan of the matrix
const MAX_SCANS = 100_000; // the scans remembered (the newest)

function out(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function loadUf2(flash, data) {
  for (let at = 0; at + 512 <= data.length; at += 512) {
    const view = new DataView(data.buffer, data.byteOffset + at, 512);
    if (view.getUint32(0, true) !== 0x0a324655 || view.getUint32(4, true) !== 0x9e5d5157) continue;
    const address = view.getUint32(12, true);
    const size = view.getUint32(16, true);
    if (address >= 0x10000000 && address < 0x11000000) {
      flash.set(data.subarray(at + 32, at + 32 + size), address - 0x10000000);
    }
  }
}

const SimulationClock = new RP2040().clock.constructor; // not exported by the package
const uf2 = readFileSync(args.uf2);
let fsImage = args.fs ? readFileSync(args.fs) : null; // another at each power op that names one

class Chip {
  // One power-up of the Pico: a fresh RP2040 on the clock's time, with ``flash`` (kept over
  // a reset) or the UF2 and the littlefs image.
  constructor(emu, flash, startNanos, resetReason) {
    this.emu = emu;
    const clock = new SimulationClock();
    clock.nanosCounter = startNanos;
    const mcu = (this.mcu = new RP2040(clock));
    mcu.logger = { debug() {}, info() {}, warn() {}, error(name, msg) { emu.log(`${name}: ${msg}`); } };
    this.rom = new Bootrom(mcu, emu);
    mcu.loadBootrom(this.rom.image()); // resets the core (and fills the flash with 0xff)
    if (flash) {
      mcu.flash.set(flash);
    } else {
      loadUf2(mcu.flash, uf2);
      if (fsImage) mcu.flash.set(fsImage, FS_OFFSET);
    }
    mcu.onBreak = (code) => this.rom.call(code);
    const watchdog = mcu.peripherals[0x40058];
    watchdog.onWatchdogTrigger = () => {
      // rp2040js re-arms a fired alarm at once, for ever (the counter stays at 0): stop it,
      // and reset the chip when this instruction is done.
      watchdog.alarm.enable = false;
      watchdog.timer.enable = false;
      emu.watchdogFired(watchdog.reason);
    };
    if (resetReason) watchdog.reason = resetReason;
    // The state machines run in our loop, not on rp2040js's timers.
    for (const pio of mcu.pio) pio.run = () => {};
    this.machines = [];
    for (const pio of mcu.pio) for (const sm of pio.machines) { sm.nextNanos = startNanos; this.machines.push(sm); }
    this.watchPio();
    // UARTs: rp2040js raises the TX interrupt again on every interrupt check, so a driver
    // that enables it (MicroPython's does, at init) is interrupted for ever and the program
    // never runs. Here it rises when a byte is written (the TX FIFO empties at once) and stays
    // down once cleared, as the PL011's level crossing does.
    for (const uart of mcu.uart) {
      uart.checkInterrupts = () => mcu.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
      const write = uart.writeUint32.bind(uart);
      uart.writeUint32 = (offset, value) => {
        write(offset, value);
        if (offset === UART_DR) {
          uart.interruptStatus |= UART_TX_INTR;
          uart.checkInterrupts();
        }
      };
    }
    // USB: a host that enumerates the CDC interface and opens it (DTR).
    this.connectUsb();
    // Pins: the key matrix (a row's level, a column's pad: its pull-up), the LED decoders.
    for (const pin of [...emu.rowPinList, ...PULL_UPS]) mcu.gpio[pin].addListener(() => emu.updateColumns());
    // A scan of the matrix: a row driven low (the rows driven low together, or one after
    // another within a scan, count once: SCAN_GAP_NS apart at least).
    for (const pin of emu.rowPinList) {
      mcu.gpio[pin].addListener((state) => {
        if (state !== GPIOPinState.Low || this !== emu.chip) return;
        const now = clock.nanos;
        if (emu.lastScan == null || now - emu.lastScan >= SCAN_GAP_NS) emu.scanTimes.push(now / 1000);
        emu.lastScan = now;
        if (emu.scanTimes.length > MAX_SCANS) emu.scanTimes.splice(0, emu.scanTimes.length - MAX_SCANS);
      });
    }
    for (const pin of LED_PINS) {
      mcu.gpio[pin].addListener((state) => emu.decoders[pin].edge(state === GPIOPinState.High, this.edgeNanos ?? clock.nanos));
    }
    this.edgeNanos = null;
  }

  connectUsb() {
    const cdc = (this.cdc = new USBCDC(this.mcu.usbCtrl));
    // The host's side of the cable holds what it writes until the device takes it (USB flow
    // control), as a computer's serial driver does: rp2040js's 512-byte FIFO dropped the rest
    // of a longer write (60 command lines at once).
    cdc.txFIFO = new cdc.txFIFO.constructor(HOST_BUFFER);
    cdc.onDeviceConnected = () => {
      this.emu.usbConnected = true;
      out({ ev: 'usb', state: 'connected', us: this.emu.micros() });
    };
    cdc.onSerialData = (buffer) => {
      if (this.emu.plugged) out({ ev: 'serial', data: Buffer.from(buffer).toString('base64'), us: this.emu.micros() });
    };
  }

  // Runs the CPU until ``untilNanos`` (emulated), stepping the state machines in time.
  run(untilNanos) {
    const { mcu } = this;
    const { core, clock } = mcu;
    const emu = this.emu;
    const cycleNanos = 1e9 / mcu.clkSys;
    this.pioChanged = false;
    const active = this.machines.filter((sm) => sm.enabled);
    while (clock.nanosCounter < untilNanos && !emu.pendingReset && !this.pioChanged) {
      if (emu.hung) {
        // A firmware that hangs: the CPU does nothing, time (and the watchdog) goes on.
        const next = clock.nextAlarm ? clock.nextAlarm.nanos : untilNanos;
        clock.tick(Math.max(0, Math.min(next, untilNanos) - clock.nanosCounter));
        continue;
      }
      if (core.waiting) {
        let next = clock.nextAlarm ? clock.nextAlarm.nanos : untilNanos;
        for (const sm of active) if (!this.idle(sm)) next = Math.min(next, sm.nextNanos);
        next = Math.min(next, untilNanos);
        clock.tick(Math.max(next - clock.nanosCounter, cycleNanos));
      } else {
        // clock.tick(), without its call when no alarm is due
        clock.nanosCounter += core.executeInstruction() * cycleNanos;
        if (clock.nextAlarm && clock.nextAlarm.nanos <= clock.nanosCounter) clock.tick(0);
      }
      if (this.pioBusy) this.stepMachines(active);
    }
  }

  watchPio() {
    // A state machine started or stopped by the CPU joins or leaves the loop at once, on
    // the present time; one waiting for its TX FIFO is left alone until the CPU fills it.
    this.pioBusy = true;
    for (const sm of this.machines) {
      const writeFIFO = sm.writeFIFO.bind(sm);
      sm.writeFIFO = (value) => {
        if (this.idle(sm) && sm.nextNanos < this.mcu.clock.nanosCounter) sm.nextNanos = this.mcu.clock.nanosCounter;
        writeFIFO(value);
        this.pioBusy = true;
      };
    }
    for (const pio of this.mcu.pio) {
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const before = pio.machines.map((sm) => sm.enabled);
        write(offset, value);
        pio.machines.forEach((sm, i) => {
          if (sm.enabled !== before[i]) {
            sm.nextNanos = this.mcu.clock.nanosCounter;
            this.pioChanged = true;
          }
          this.pioBusy = true;
        });
      };
    }
  }

  idle(sm) {
    // A state machine waiting for the CPU to fill its TX FIFO runs again only when it does.
    return sm.waiting && sm.txFIFO.empty && (sm.waitType === WAIT_OUT || sm.waitType === WAIT_TX_FIFO);
  }

  stepMachines(active) {
    const now = this.mcu.clock.nanosCounter;
    const cycleNanos = 1e9 / this.mcu.clkSys;
    let busy = false;
    for (const sm of active) {
      if (!sm.enabled) continue;
      if (this.idle(sm)) {
        if (sm.nextNanos < now) sm.nextNanos = now;
        continue;
      }
      const tick = (sm.clockDivInt + sm.clockDivFrac / 256 || 65536) * cycleNanos;
      while (sm.nextNanos <= now) {
        const before = sm.cycles;
        this.edgeNanos = sm.nextNanos;
        sm.step();
        sm.pio.checkChangedPins();
        const spent = sm.cycles - before;
        sm.nextNanos += (spent > 0 ? spent : 1) * tick;
        if (this.idle(sm)) break;
      }
      this.edgeNanos = null;
      if (!this.idle(sm)) busy = true;
    }
    this.pioBusy = busy;
  }
}

class Ws2812Decoder {
  constructor(pin) {
    this.pin = pin;
    this.high = false;
    this.rise = 0;
    this.fall = 0;
    this.bits = [];
    this.frames = 0;
    this.pixels = [];
    this.firstRise = null;
    this.lastFall = null; // the end of the last bit of the last frame
    this.frameStart = null;
    this.history = []; // the last frames: {start_us, end_us, pixels}
  }

  edge(high, nanos) {
    if (high === this.high) return;
    this.high = high;
    if (high) {
      if (this.bits.length && nanos - this.fall > WS2812_LATCH_NS) this.latch();
      if (!this.bits.length) this.firstRise = nanos;
      this.rise = nanos;
    } else {
      this.fall = nanos;
      this.bits.push(nanos - this.rise > WS2812_ONE_NS ? 1 : 0);
    }
  }

  settle(nanos) {
    if (this.bits.length && !this.high && nanos - this.fall > WS2812_LATCH_NS) this.latch();
  }

  latch() {
    const pixels = [];
    for (let i = 0; i + 24 <= this.bits.length; i += 24) {
      let word = 0;
      for (let b = 0; b < 24; b++) word = word * 2 + this.bits[i + b];
      const g = (word >> 16) & 255, r = (word >> 8) & 255, bl = word & 255;
      pixels.push([r, g, bl]);
    }
    this.pixels = pixels;
    this.history.push({ start_us: this.firstRise / 1000, end_us: this.fall / 1000, pixels });
    if (this.history.length > 32) this.history.shift();
    this.frames += 1;
    this.frameStart = this.firstRise;
    this.lastFall = this.fall;
    this.bits = [];
  }
}

class Emulator {
  constructor() {
    this.rowPinList = (args['row-pins'] ?? '').split(',').filter(Boolean).map(Number);
    this.powerOn();
  }

  powerOn() {
    // A power-up: a new RP2040 at emulated time 0 with the UF2 and the littlefs image on its
    // flash, no key held, the cable in, and the harness's own record (frames decoded,
    // resets, ROM lookups) empty: everything as a new process of this script starts. The
    // chip before it is dropped: it runs no more, and its alarms (a timed key, a UART's
    // bytes) never fire.
    this.decoders = Object.fromEntries(LED_PINS.map((pin) => [pin, new Ws2812Decoder(pin)]));
    this.pressed = []; // [row pin, column pin] pairs held down
    this.scanTimes = []; // when the firmware scanned the matrix (emulated µs), the newest MAX_SCANS
    this.lastScan = null;
    this.releaseNanos = null; // when a timed press lets go (emulated), or null
    this.hung = false;
    this.plugged = true;
    this.usbConnected = false;
    this.resets = 0;
    this.pendingReset = null;
    this.lookups = new Map();
    this.calls = new Map();
    this.off = false;
    this.chip = new Chip(this, null, 0, 0);
    this.updateColumns();
  }

  micros() {
    return this.chip.mcu.clock.nanosCounter / 1000;
  }

  log(text) {
    out({ ev: 'log', text });
  }

  updateColumns() {
    // A column is high only through its pad's own pull-up (the firmware's Pin.PULL_UP), and a
    // key joining it to a row driven low pulls it down.
    const { gpio } = this.chip.mcu;
    for (const col of PULL_UPS) {
      const low = this.pressed.some(([row, c]) => c === col && gpio[row].value === GPIOPinState.Low);
      const high = gpio[col].pullupEnabled && !low;
      if (high !== gpio[col].rawInputValue) gpio[col].setInputValue(high);
    }
  }

  press(keys, ms) {
    // Holds ``keys`` down; with ``ms``, lets go of them that long later on the emulated clock
    // (over a reset too), whatever the host's pace.
    this.pressed = keys;
    this.releaseNanos = ms == null ? null : this.chip.mcu.clock.nanosCounter + ms * 1e6;
    this.scheduleRelease();
    this.updateColumns();
  }

  scheduleRelease() {
    const chip = this.chip;
    if (chip.releaseAlarm) chip.releaseAlarm.cancel();
    if (this.releaseNanos == null) return;
    chip.releaseAlarm = chip.mcu.clock.createAlarm(() => {
      if (this.chip !== chip) return;
      this.pressed = [];
      this.releaseNanos = null;
      this.updateColumns();
    });
    chip.releaseAlarm.schedule(Math.max(0, this.releaseNanos - chip.mcu.clock.nanosCounter));
  }

  watchdogFired(reason) {
    // Reset at the end of this instruction: a new chip on the same flash and time.
    this.pendingReset = reason || 1;
  }

  resetChip(reason) {
    const old = this.chip;
    const nanos = old.mcu.clock.nanosCounter;
    this.hung = false;
    this.usbConnected = false;
    this.resets += 1;
    this.chip = new Chip(this, old.mcu.flash.slice(0, 4 * 1024 * 1024), nanos, reason);
    this.scheduleRelease();
    this.updateColumns();
    out({ ev: 'reset', reason: reason === 2 ? 'forced' : 'watchdog', us: nanos / 1000 });
  }

  later(ms, action) {
    // ``action`` ms from now on this chip's emulated clock (not at all if it is reset or
    // powered off first); returns when, in µs.
    const chip = this.chip;
    const alarm = chip.mcu.clock.createAlarm(() => { if (this.chip === chip) action(); });
    alarm.schedule(ms * 1e6);
    return (chip.mcu.clock.nanosCounter + ms * 1e6) / 1000;
  }

  sendSerial(bytes) {
    const { cdc } = this.chip;
    for (const byte of bytes) cdc.sendSerialByte(byte);
  }

  handle(request) {
    const { op } = request;
    const chip = this.chip;
    switch (op) {
      case 'serial':
        // The reply's time is when the bytes were offered to the device (its last byte sent);
        // with after_ms, that long from now on the emulated clock.
        if (request.after_ms) {
          const bytes = Buffer.from(request.data, 'base64');
          return { us: this.later(request.after_ms, () => { if (this.plugged) this.sendSerial(bytes); }) };
        }
        if (this.plugged) this.sendSerial(Buffer.from(request.data, 'base64'));
        return { us: this.micros() };
      case 'together':
        // Several requests at one emulated instant (a press at an exact offset from a write).
        return { replies: request.requests.map((sub) => this.handle(sub)) };
      case 'history': {
        // The frames on a pin that began after since_us.
        const decoder = this.decoders[request.pin];
        decoder.settle(chip.mcu.clock.nanosCounter);
        return { frames: decoder.history.filter((f) => f.start_us >= (request.since_us ?? 0)) };
      }
      case 'uart': {
        // Bytes into a UART's RX pin at its line's pace (9600 baud, 8N1 by default: 1.04 ms a
        // byte), as a card reader sends them.
        const uart = chip.mcu.uart[request.uart ?? 0];
        const queue = [...Buffer.from(request.data, 'base64')];
        const byteNanos = 1e10 / (request.baud ?? 9600);
        const alarm = chip.mcu.clock.createAlarm(() => {
          if (this.chip !== chip || !queue.length) return;
          uart.feedByte(queue.shift());
          if (queue.length) alarm.schedule(byteNanos);
        });
        alarm.schedule(byteNanos);
        return {};
      }
      case 'peek': {
        // Bytes of the emulated memory (a probe's own buffer, found through a scratch register).
        const bytes = [];
        for (let i = 0; i < Math.min(request.length ?? 4, 4096); i++) bytes.push(chip.mcu.readUint8(request.address + i));
        return { data: Buffer.from(bytes).toString('hex') };
      }
      case 'scratch': {
        // The watchdog's scratch registers 0-3 (the SDK leaves them to the program): a
        // protocol-neutral way for a test's own code on the Pico to report to the harness.
        const wd = chip.mcu.peripherals[0x40058];
        if (request.value !== undefined) wd.scratchData[request.index] = request.value >>> 0;
        return { value: wd.scratchData[request.index] };
      }
      case 'press': {
        // Keys held down from now; with ms, let go ms later (emulated). The reply's times are
        // when they went down and when they will come up (null: held until the next press).
        // With after_ms, they go down that long from now (emulated).
        if (request.after_ms) {
          const at = this.later(request.after_ms, () => this.press(request.keys ?? [], request.ms ?? null));
          return { us: at, until_us: request.ms == null ? null : at + request.ms * 1000 };
        }
        this.press(request.keys ?? [], request.ms ?? null);
        return { us: this.micros(), until_us: this.releaseNanos == null ? null : this.releaseNanos / 1000 };
      }
      case 'pixels': {
        const decoder = this.decoders[request.pin];
        decoder.settle(chip.mcu.clock.nanosCounter);
        return {
          pixels: decoder.pixels, frames: decoder.frames,
          start_us: decoder.frameStart == null ? null : decoder.frameStart / 1000,
          end_us: decoder.lastFall == null ? null : decoder.lastFall / 1000,
        };
      }
      case 'scans':
        // When the firmware scanned the key matrix (a row driven low), since since_us (µs).
        return { us: this.scanTimes.filter((t) => t >= (request.since_us ?? 0)), now_us: this.micros() };
      case 'time':
        return { us: this.micros(), resets: this.resets, usb: this.usbConnected, clk_sys: chip.mcu.clkSys };
      case 'hang':
        // The reply's time is the hang's: the CPU runs nothing from then on.
        this.hung = true;
        return { us: this.micros() };
      case 'unplug':
        this.plugged = false;
        return {};
      case 'plug':
        // A replug: a new bus reset and enumeration by a fresh host.
        this.plugged = true;
        this.usbConnected = false;
        chip.connectUsb();
        chip.mcu.usbCtrl.resetDevice();
        return {};
      case 'watchdog': {
        const wd = chip.mcu.peripherals[0x40058];
        return { enable: wd.enable, tick: wd.tickEnable, counter: wd.timer.counter, alarm: wd.alarm.enabled,
                 scheduled: wd.alarm.clockAlarm.scheduled, at_us: wd.alarm.clockAlarm.nanos / 1000, now_us: this.micros() };
      }
      case 'lookups':
        // What the firmware took from the ROM: lookups by code, calls by function.
        return { lookups: Object.fromEntries(this.lookups), calls: Object.fromEntries(this.calls) };
      case 'power':
        // Off and on again (see powerOn), with the littlefs image at request.fs if given. The
        // reply comes after every event of the chip before and before any of the new one's.
        if (request.fs) fsImage = readFileSync(request.fs);
        this.powerOn();
        return { powered: true, us: this.micros() };
      case 'off':
        // Switched off until the next power op: the chip runs no more (the loop only waits
        // for requests, not spending a core on a board nobody uses).
        this.off = true;
        return { us: this.micros() };
      case 'quit':
        process.exit(0);
      default:
        return { error: `unknown op ${op}` };
    }
  }

  loop() {
    // Run in slices of emulated time, answering requests between them.
    const slice = 2_000_000; // 2 ms emulated
    const started = Date.now();
    if (this.off) {
      setTimeout(() => this.loop(), 20);
      return;
    }
    while (Date.now() - started < 20 && !this.off) {
      const chip = this.chip;
      chip.run(chip.mcu.clock.nanosCounter + slice);
      if (this.pendingReset) {
        const reason = this.pendingReset;
        this.pendingReset = null;
        this.resetChip(reason);
      }
    }
    setImmediate(() => this.loop());
  }
}

const emu = new Emulator();

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    out({ ev: 'log', text: `bad request: ${line}` });
    return;
  }
  let reply;
  try {
    reply = emu.handle(request);
  } catch (error) {
    reply = { error: String(error.stack || error) };
  }
  if (request.id !== undefined) out({ id: request.id, ...reply });
});
process.stdin.on('end', () => process.exit(0));
emu.loop();
