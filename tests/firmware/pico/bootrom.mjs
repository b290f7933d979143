// A bootrom of our own for the emulated RP2040: rp2040js ships none. Nothing of the real
// bootrom's code is here; the image is built at run time and each function the pico-sdk looks
// up is a two-instruction stub (bkpt #n; bx lr) whose breakpoint the harness answers in
// JavaScript (high-level emulation):
//
//   0x00  initial stack pointer, reset vector (the code at 0x100)
//   0x10  'M' 'u' 0x01, version byte 3 at 0x13
//   0x14  function table, 0x16 data table, 0x18 table lookup function (16-bit pointers)
//   0x100 reset: VTOR = 0x10000100 (the image's vector table after boot2), SP and PC from it.
//         boot2 is skipped: rp2040js maps the flash directly.
//   0x200 the stubs, 4 bytes each
//
// Functions: the mem_ops and bit_ops the pico-sdk takes from the ROM, the flash functions
// (on rp2040js's flash array), reset_to_usb_boot, and the soft-float and soft-double tables
// ('SF', 'SD') computed with Float32Array and Float64Array.

const STUBS = 0x200;
const FUNC_TABLE = 0x800;
const DATA_TABLE = 0x900;
const SF_TABLE = 0xa04; // the byte at table - 2 is its size in words
const SD_TABLE = 0xb04;
const HANG = 0xc00; // b . (reset_to_usb_boot ends here)

const f32 = new Float32Array(1);
const u32f = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u32d = new Uint32Array(f64.buffer);

function toFloat(bits) { u32f[0] = bits; return f32[0]; }
function fromFloat(value) { f32[0] = value; return u32f[0]; }
function toDouble(lo, hi) { u32d[0] = lo; u32d[1] = hi; return f64[0]; }
function fromDouble(value) { f64[0] = value; return [u32d[0], u32d[1]]; }
function code(a, b) { return a.charCodeAt(0) | (b.charCodeAt(0) << 8); }

// The ROM's float to integer conversions round towards minus infinity and saturate.
function toInt32(v) { return Number.isNaN(v) ? 0 : Math.max(-2147483648, Math.min(2147483647, Math.floor(v))) >>> 0; }
function toUint32(v) { return Number.isNaN(v) ? 0 : Math.max(0, Math.min(4294967295, Math.floor(v))) >>> 0; }
function toInt64(v) {
  if (Number.isNaN(v)) return [0, 0];
  let big;
  if (v >= 9223372036854775807) big = 0x7fffffffffffffffn;
  else if (v <= -9223372036854775808) big = -0x8000000000000000n;
  else big = BigInt(Math.floor(v));
  big = BigInt.asUintN(64, big);
  return [Number(big & 0xffffffffn), Number(big >> 32n)];
}
function toUint64(v) {
  if (Number.isNaN(v) || v <= 0) return [0, 0];
  const big = v >= 18446744073709551615 ? 0xffffffffffffffffn : BigInt(Math.floor(v));
  return [Number(big & 0xffffffffn), Number(big >> 32n)];
}
function int64(lo, hi) { return Number(BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0))); }
function uint64(lo, hi) { return Number((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)); }
function cmp(a, b) { return a < b ? -1 : a > b ? 1 : a === b ? 0 : 1; }

// The soft-float table, in the ROM's order (pico/bootrom/sf_table.h): each entry takes the
// registers and returns the result registers. F: a float from bits, R: float bits back.
const F = toFloat, R = fromFloat;
const SF = [
  (r) => [R(F(r[0]) + F(r[1]))], // fadd
  (r) => [R(F(r[0]) - F(r[1]))], // fsub
  (r) => [R(F(r[0]) * F(r[1]))], // fmul
  (r) => [R(F(r[0]) / F(r[1]))], // fdiv
  (r) => [cmp(F(r[0]), F(r[1])) >>> 0, 'flags'], // fcmp_fast
  (r) => [cmp(F(r[0]), F(r[1])) >>> 0, 'flags'], // fcmp_fast_flags
  (r) => [R(Math.sqrt(F(r[0])))], // fsqrt
  (r) => [toInt32(F(r[0]))], // float2int
  (r) => [toInt32(F(r[0]) * 2 ** (r[1] | 0))], // float2fix
  (r) => [toUint32(F(r[0]))], // float2uint
  (r) => [toUint32(F(r[0]) * 2 ** (r[1] | 0))], // float2ufix
  (r) => [R(r[0] | 0)], // int2float
  (r) => [R((r[0] | 0) / 2 ** (r[1] | 0))], // fix2float
  (r) => [R(r[0] >>> 0)], // uint2float
  (r) => [R((r[0] >>> 0) / 2 ** (r[1] | 0))], // ufix2float
  (r) => [R(Math.cos(F(r[0])))], // fcos
  (r) => [R(Math.sin(F(r[0])))], // fsin
  (r) => [R(Math.tan(F(r[0])))], // ftan
  (r) => [R(Math.sin(F(r[0]))), R(Math.cos(F(r[0])))], // fsincos
  (r) => [R(Math.exp(F(r[0])))], // fexp
  (r) => [R(Math.log(F(r[0])))], // fln
  (r) => [cmp(F(r[0]), F(r[1])) >>> 0, 'flags'], // fcmp
  (r) => [R(Math.atan2(F(r[0]), F(r[1])))], // fatan2
  (r) => [R(int64(r[0], r[1]))], // int642float
  (r) => [R(int64(r[0], r[1]) / 2 ** (r[2] | 0))], // fix642float
  (r) => [R(uint64(r[0], r[1]))], // uint642float
  (r) => [R(uint64(r[0], r[1]) / 2 ** (r[2] | 0))], // ufix642float
  (r) => toInt64(F(r[0])), // float2int64
  (r) => toInt64(F(r[0]) * 2 ** (r[1] | 0)), // float2fix64
  (r) => toUint64(F(r[0])), // float2uint64
  (r) => toUint64(F(r[0]) * 2 ** (r[1] | 0)), // float2ufix64
  (r) => fromDouble(F(r[0])), // float2double
];
const D = (r, i = 0) => toDouble(r[i], r[i + 1]);
const W = fromDouble;
const SD = [
  (r) => W(D(r) + D(r, 2)), // dadd
  (r) => W(D(r) - D(r, 2)), // dsub
  (r) => W(D(r) * D(r, 2)), // dmul
  (r) => W(D(r) / D(r, 2)), // ddiv
  (r) => [cmp(D(r), D(r, 2)) >>> 0, 'flags'], // dcmp_fast
  (r) => [cmp(D(r), D(r, 2)) >>> 0, 'flags'], // dcmp_fast_flags
  (r) => W(Math.sqrt(D(r))), // dsqrt
  (r) => [toInt32(D(r))], // double2int
  (r) => [toInt32(D(r) * 2 ** (r[2] | 0))], // double2fix
  (r) => [toUint32(D(r))], // double2uint
  (r) => [toUint32(D(r) * 2 ** (r[2] | 0))], // double2ufix
  (r) => W(r[0] | 0), // int2double
  (r) => W((r[0] | 0) / 2 ** (r[1] | 0)), // fix2double
  (r) => W(r[0] >>> 0), // uint2double
  (r) => W((r[0] >>> 0) / 2 ** (r[1] | 0)), // ufix2double
  (r) => W(Math.cos(D(r))), // dcos
  (r) => W(Math.sin(D(r))), // dsin
  (r) => W(Math.tan(D(r))), // dtan
  (r) => [...W(Math.sin(D(r))), ...W(Math.cos(D(r)))], // dsincos
  (r) => W(Math.exp(D(r))), // dexp
  (r) => W(Math.log(D(r))), // dln
  (r) => [cmp(D(r), D(r, 2)) >>> 0, 'flags'], // dcmp
  (r) => W(Math.atan2(D(r), D(r, 2))), // datan2
  (r) => W(int64(r[0], r[1])), // int642double
  (r) => W(int64(r[0], r[1]) / 2 ** (r[2] | 0)), // fix642double
  (r) => W(uint64(r[0], r[1])), // uint642double
  (r) => W(uint64(r[0], r[1]) / 2 ** (r[2] | 0)), // ufix642double
  (r) => toInt64(D(r)), // double2int64
  (r) => toInt64(D(r) * 2 ** (r[2] | 0)), // double2fix64
  (r) => toUint64(D(r)), // double2uint64
  (r) => toUint64(D(r) * 2 ** (r[2] | 0)), // double2ufix64
  (r) => [R(D(r))], // double2float
];

export class Bootrom {
  constructor(mcu, emu) {
    this.mcu = mcu;
    this.emu = emu;
    this.handlers = []; // bkpt number -> function of the registers
    this.functions = new Map(); // code -> stub address
    const flash = () => mcu.flash;
    const mem = {
      read8: (a) => mcu.readUint8(a),
      write8: (a, v) => mcu.writeUint8(a, v),
    };
    const copy = (dest, src, n) => {
      const ram = mcu.sram;
      const base = 0x20000000;
      if (dest >= base && dest + n <= base + ram.length && src >= base && src + n <= base + ram.length) {
        ram.copyWithin(dest - base, src - base, src - base + n);
      } else if (dest >= base && dest + n <= base + ram.length && src >= 0x10000000 && src + n <= 0x11000000) {
        ram.set(mcu.flash.subarray(src - 0x10000000, src - 0x10000000 + n), dest - base);
      } else {
        for (let i = 0; i < n; i++) mem.write8(dest + i, mem.read8(src + i));
      }
    };
    const fill = (dest, c, n) => {
      const base = 0x20000000;
      if (dest >= base && dest + n <= base + mcu.sram.length) mcu.sram.fill(c & 255, dest - base, dest - base + n);
      else for (let i = 0; i < n; i++) mem.write8(dest + i, c);
    };
    const fn = (name, handler) => {
      this.functions.set(code(name[0], name[1]), this.stub(handler, name));
    };
    fn('MS', (r) => { fill(r[0], r[1], r[2]); return [r[0]]; }); // memset
    fn('S4', (r) => { fill(r[0], r[1], r[2]); return [r[0]]; }); // memset4
    fn('MC', (r) => { copy(r[0], r[1], r[2]); return [r[0]]; }); // memcpy
    fn('C4', (r) => { copy(r[0], r[1], r[2]); return [r[0]]; }); // memcpy44
    fn('P3', (r) => { let v = r[0] >>> 0, n = 0; while (v) { n += v & 1; v >>>= 1; } return [n]; }); // popcount32
    fn('R3', (r) => { let v = r[0] >>> 0, o = 0; for (let i = 0; i < 32; i++) { o = (o << 1) | (v & 1); v >>>= 1; } return [o >>> 0]; }); // reverse32
    fn('L3', (r) => [Math.clz32(r[0])]); // clz32
    fn('T3', (r) => [r[0] ? 31 - Math.clz32(r[0] & -r[0]) : 32]); // ctz32
    fn('IF', () => []); // connect_internal_flash
    fn('EX', () => []); // flash_exit_xip
    fn('RE', (r) => { flash().fill(0xff, r[0], r[0] + r[1]); return []; }); // flash_range_erase(offset, count, block, cmd)
    fn('RP', (r) => { // flash_range_program(offset, data, count): a NOR program clears bits
      const f = flash();
      for (let i = 0; i < r[2]; i++) f[r[0] + i] &= mem.read8(r[1] + i);
      return [];
    });
    fn('FC', () => []); // flash_flush_cache
    fn('CX', () => []); // flash_enter_cmd_xip
    fn('UB', () => { emu.log('reset_to_usb_boot called: the firmware asked for the USB bootloader'); return ['hang']; });
    fn('WV', () => ['hang']); // wait_for_vector (core 1 is not emulated)
    fn('DT', () => []); // debug_trampoline
    fn('DE', () => []); // debug_trampoline_end
    this.sf = SF.map((f, i) => this.stub((r) => f(r), `SF${i}`));
    this.sd = SD.map((f, i) => this.stub((r) => f(r), `SD${i}`));
    this.lookup = this.stub((r) => [this.find(r[0], r[1])], 'lookup');
  }

  stub(handler, name) {
    const n = this.handlers.length;
    if (n >= 256) throw new Error('too many ROM functions');
    this.handlers.push({ handler, name });
    return STUBS + 4 * n;
  }

  find(table, wanted) {
    const { mcu } = this;
    for (let at = table; ; at += 4) {
      const entry = mcu.readUint16(at);
      if (!entry) break;
      if (entry === wanted) {
        const name = String.fromCharCode(wanted & 255, wanted >> 8);
        this.emu.lookups.set(name, (this.emu.lookups.get(name) ?? 0) + 1);
        const address = mcu.readUint16(at + 2);
        return table === DATA_TABLE ? address : address | 1;
      }
    }
    const name = String.fromCharCode(wanted & 255, wanted >> 8);
    this.emu.log(`ROM lookup of ${name}: not in this bootrom`);
    return 0;
  }

  image() {
    const rom = new Uint8Array(16 * 1024);
    const view = new DataView(rom.buffer);
    const w16 = (at, v) => view.setUint16(at, v, true);
    const w32 = (at, v) => view.setUint32(at, v >>> 0, true);
    w32(0x00, 0x20042000);
    w32(0x04, 0x100 | 1);
    rom.set([0x4d, 0x75, 0x01, 3], 0x10); // 'M' 'u' 1, version 3
    w16(0x14, FUNC_TABLE);
    w16(0x16, DATA_TABLE);
    w16(0x18, this.lookup | 1);
    // reset: ldr r0,=0x10000100; ldr r1,=0xe000ed08; str r0,[r1]; ldr r1,[r0]; mov sp,r1;
    //        ldr r1,[r0,#4]; bx r1
    [0x4803, 0x4904, 0x6008, 0x6801, 0x468d, 0x6841, 0x4708, 0xbf00].forEach((op, i) => w16(0x100 + 2 * i, op));
    w32(0x110, 0x10000100);
    w32(0x114, 0xe000ed08);
    this.handlers.forEach((_, n) => { w16(STUBS + 4 * n, 0xbe00 | n); w16(STUBS + 4 * n + 2, 0x4770); });
    let at = FUNC_TABLE;
    for (const [key, address] of this.functions) { w16(at, key); w16(at + 2, address); at += 4; }
    w16(at, 0);
    at = DATA_TABLE;
    for (const [key, address] of [[code('S', 'F'), SF_TABLE], [code('S', 'D'), SD_TABLE]]) { w16(at, key); w16(at + 2, address); at += 4; }
    w16(at, 0);
    rom[SF_TABLE - 2] = this.sf.length;
    rom[SD_TABLE - 2] = this.sd.length;
    this.sf.forEach((address, i) => w32(SF_TABLE + 4 * i, address | 1));
    this.sd.forEach((address, i) => w32(SD_TABLE + 4 * i, address | 1));
    w16(HANG, 0xe7fe); // b .
    return new Uint32Array(rom.buffer);
  }

  call(n) {
    const { core } = this.mcu;
    const entry = this.handlers[n];
    if (!entry) {
      this.emu.log(`bkpt #${n} outside the ROM's functions at ${(core.PC - 2).toString(16)}`);
      return;
    }
    this.emu.calls.set(entry.name, (this.emu.calls.get(entry.name) ?? 0) + 1);
    const regs = core.registers;
    const result = entry.handler([regs[0], regs[1], regs[2], regs[3]]);
    if (result[result.length - 1] === 'hang') {
      core.PC = HANG;
      return;
    }
    if (result[result.length - 1] === 'flags') {
      const value = result[0] | 0; // a compare: flags as after cmp a, b
      core.N = value < 0;
      core.Z = value === 0;
      core.C = value >= 0;
      core.V = false;
      regs[0] = result[0] >>> 0;
      return;
    }
    result.forEach((value, i) => { regs[i] = value >>> 0; });
  }
}
