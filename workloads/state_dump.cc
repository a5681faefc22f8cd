#include "workloads/state_dump.h"

namespace otpu::workloads {

StateDump MakeStateDump(const isa::Config& cfg) {
  constexpr uint64_t kPage = 1 << 16;
  const uint32_t d = uint32_t(cfg.D);
  const uint32_t rows = uint32_t(cfg.ACT_ROWS);
  const uint64_t ident_bytes = (uint64_t(d) * d + kPage - 1) / kPage * kPage;
  const uint64_t tmem_bytes = uint64_t(cfg.TMEM_WORDS) * 4;
  const uint64_t act_bytes = uint64_t(cfg.ACT_BLOCKS) * rows * d * 4;
  const uint64_t total = (ident_bytes + tmem_bytes + act_bytes + kPage - 1) / kPage * kPage;
  const uint64_t base = cfg.DRAM_BYTES - total;

  StateDump dump;
  DramWrite ident{base, std::vector<uint8_t>(size_t(d) * d, 0)};
  for (uint32_t j = 0; j < d; ++j) ident.bytes[size_t(j) * d + j] = 1;
  dump.writes.push_back(std::move(ident));
  dump.tmem = {base + ident_bytes, tmem_bytes};
  dump.act = {base + ident_bytes + tmem_bytes, act_bytes};

  isa::ProgramBuilder b;
  // TMEM first, before the signatures overwrite its low words; rows of 1024 words.
  isa::DmaOp st;
  st.n = 1024;
  st.rows = cfg.TMEM_WORDS / st.n;
  st.tmem = isa::At(0);
  st.dram = isa::At(uint32_t(dump.tmem.addr));
  st.tmem_stride = st.n;
  st.dram_stride = st.n * 4;
  b.St(st);
  // One MM per block into two alternating TMEM buffers, each stored as it is done.
  const uint32_t buf_words = rows * d;
  for (uint32_t blk = 0; blk < uint32_t(cfg.ACT_BLOCKS); ++blk) {
    const uint32_t buf = (blk % 2) * buf_words;
    isa::MmOp mm;
    mm.out = isa::At(buf);
    mm.w = isa::At(uint32_t(base));
    mm.n = d;
    mm.k = d;
    mm.m = rows;
    mm.act_row = 0;
    mm.act_block = blk;
    mm.w_stride = d;
    mm.out_stride = d;
    mm.unit = true;
    b.Mm(mm);
    isa::DmaOp out;
    out.n = buf_words;
    out.rows = 1;
    out.tmem = isa::At(buf);
    out.dram = isa::At(uint32_t(dump.act.addr + uint64_t(blk) * buf_words * 4));
    out.tmem_stride = buf_words;
    out.dram_stride = buf_words * 4;
    b.St(out);
  }
  b.Halt();
  dump.program = b.Finish();
  return dump;
}

}  // namespace otpu::workloads
