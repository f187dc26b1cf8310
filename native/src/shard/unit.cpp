#include "shard/unit.hpp"

namespace wx::shard {

Unit::Unit(const wx_config& config) : config_(config) {
  if (config.kind == WX_KIND_CPU) {
    impl_.reset(make_cpu_table(config));
    return;
  }
  stream_ = dev::stream_create(config.device);
  try {
    impl_.reset(config.kind == WX_KIND_GLHT ? make_glht_table(config) : make_hive_table(config));
  } catch (...) {
    dev::stream_destroy(stream_);
    throw;
  }
}

Unit::~Unit() {
  stager_.reset();
  impl_.reset();
  if (stream_) dev::stream_destroy(stream_);
}

BatchResult Unit::run(Call call, Batch b, int32_t mem, void* stream) {
  last_ = {};
  if (impl_->on_device()) b.stream = stream ? stream : stream_;
  last_ = impl_->on_device() && mem == WX_MEM_HOST ? dev::run_staged(*impl_, call, b, config_, stager_)
                                                  : run_call(*impl_, call, b);
  return last_;
}

uint64_t Unit::retrieve_all(void* keys, void* values, uint64_t size, int32_t mem, void* stream) {
  void* s = stream ? stream : stream_;
  if (impl_->on_device() && mem == WX_MEM_HOST)
    return dev::retrieve_all_to_host(*impl_, keys, values, size, config_.key_bits / 8, impl_->device(), s);
  return impl_->retrieve_all(keys, values, s);
}

}  // namespace wx::shard
