#include "transport/handles.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>

namespace bg {

namespace {

struct WriteRequest {
    uv_write_t request{};
    std::string bytes;
    detail::PipeState* pipe = nullptr;
};

}  // namespace

Pipe::Pipe(uv_loop_t* loop) : OwnedHandle(detail::PipeState{}) {
    uv_pipe_init(loop, &state_->handle, 0);
}

void Pipe::close() {
    if (state_)
        state_->callback.closed = true;
    OwnedHandle::close();
}

int Pipe::take(int fd) {
    return state_ ? uv_pipe_open(&state_->handle, fd) : UV_EBADF;
}

void Pipe::read(std::function<void(std::string_view bytes)> on_read,
                std::function<void(int error)> on_end, std::size_t buffer_bytes) {
    if (!state_)
        return;
    state_->callback.on_read = std::move(on_read);
    state_->callback.on_end = std::move(on_end);
    // Not zeroed: a read touches only the pages it fills, as a member array did.
    state_->callback.buffer = std::make_unique_for_overwrite<char[]>(buffer_bytes);
    state_->callback.buffer_bytes = buffer_bytes;
    const auto alloc = [](uv_handle_t* handle, std::size_t, uv_buf_t* buf) {
        auto& pipe = static_cast<State*>(handle->data)->callback;
        *buf = uv_buf_init(pipe.buffer.get(), static_cast<unsigned>(pipe.buffer_bytes));
    };
    const auto read = [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
        auto& pipe = static_cast<State*>(stream->data)->callback;
        if (nread > 0) {
            pipe.on_read(std::string_view(buf->base, static_cast<std::size_t>(nread)));
        } else if (nread < 0) {
            // EOF, or an error that ends the stream all the same.
            uv_read_stop(stream);
            pipe.on_end(static_cast<int>(nread));
        }
    };
    uv_read_start(reinterpret_cast<uv_stream_t*>(&state_->handle), alloc, read);
}

void Pipe::read_waiting(std::size_t at_most) {
    if (!state_ || !state_->callback.buffer)
        return;
    auto& pipe = state_->callback;
    uv_os_fd_t fd = -1;
    if (uv_fileno(reinterpret_cast<uv_handle_t*>(&state_->handle), &fd) != 0)
        return;
    // libuv's pipes do not block: a read finds what is there, or EAGAIN.
    for (std::size_t taken = 0; taken < at_most && state_ && !pipe.closed;) {
        const ssize_t n =
            ::read(fd, pipe.buffer.get(), std::min(pipe.buffer_bytes, at_most - taken));
        if (n <= 0)
            return;
        taken += static_cast<std::size_t>(n);
        pipe.on_read(std::string_view(pipe.buffer.get(), static_cast<std::size_t>(n)));
    }
}

void Pipe::on_write_error(std::function<void(int error)> callback) {
    if (state_)
        state_->callback.on_write_error = std::move(callback);
}

void Pipe::write(std::string bytes) {
    if (!state_)
        return;
    auto* stream = reinterpret_cast<uv_stream_t*>(&state_->handle);
    auto& pipe = state_->callback;
    // A message nearly always fits the pipe: written at once, it needs no request and no copy.
    // uv_try_write writes nothing while earlier bytes wait, so order is kept.
    uv_buf_t direct = uv_buf_init(bytes.data(), static_cast<unsigned>(bytes.size()));
    const int written = uv_try_write(stream, &direct, 1);
    if (written == static_cast<int>(bytes.size()))
        return;
    if (written < 0 && written != UV_EAGAIN) {
        if (pipe.on_write_error)
            pipe.on_write_error(written);
        return;
    }
    if (written > 0)
        bytes.erase(0, static_cast<std::size_t>(written));
    auto request = std::make_unique<WriteRequest>();
    request->bytes = std::move(bytes);
    request->pipe = &pipe;
    uv_buf_t buf = uv_buf_init(request->bytes.data(), static_cast<unsigned>(request->bytes.size()));
    const auto done = [](uv_write_t* req, int status) {
        std::unique_ptr<WriteRequest> owned(reinterpret_cast<WriteRequest*>(req));
        // A close cancels what is queued: its owner asked for that, and is told nothing.
        if (status < 0 && !owned->pipe->closed && owned->pipe->on_write_error)
            owned->pipe->on_write_error(status);
    };
    if (const int error = uv_write(&request->request, stream, &buf, 1, done); error < 0) {
        if (pipe.on_write_error)
            pipe.on_write_error(error);
        return;
    }
    request.release();  // freed by `done`
}

std::size_t Pipe::queued_bytes() const {
    return state_ ? uv_stream_get_write_queue_size(
                        reinterpret_cast<const uv_stream_t*>(&state_->handle))
                  : 0;
}

void Pipe::shutdown() {
    if (state_)
        uv_shutdown(&state_->callback.shutdown, reinterpret_cast<uv_stream_t*>(&state_->handle),
                    [](uv_shutdown_t*, int) {});
}

}  // namespace bg
