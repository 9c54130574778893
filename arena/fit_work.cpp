#include "arena/fit_work.hpp"

namespace bg::arena {

const Fit& FitWork::fit(const Roster& roster) {
    const std::size_t matches = roster.rankings().matches();
    if (shared_->busy || matches == begun_at_)
        return shared_->fit;
    auto* job = new Job{{}, roster.rankings(), roster.entry_ids(), {}, shared_};
    job->request.data = job;
    const int queued = uv_queue_work(
        loop_, &job->request,
        [](uv_work_t* request) {
            Job& j = *static_cast<Job*>(request->data);
            j.fit = fit_of(j.rankings, j.entries);
        },
        [](uv_work_t* request, int) {
            const std::unique_ptr<Job> j(static_cast<Job*>(request->data));
            j->shared->fit = std::move(j->fit);
            j->shared->busy = false;
        });
    if (queued != 0) {
        delete job;
        return shared_->fit;
    }
    shared_->busy = true;
    begun_at_ = matches;
    return shared_->fit;
}

}  // namespace bg::arena
