#include "arena/fit_work.hpp"

#include <functional>
#include <vector>

namespace bg::arena {

namespace {

// One computation: the archive's rankings and entries copied in, the fit out.
struct Job {
    uv_work_t request{};
    Rankings rankings;
    std::vector<int> entries;
    Fit fit;
    std::function<void(Job&)> done;
};

}  // namespace

const Fit& FitWork::fit(const Roster& roster) {
    const std::size_t matches = roster.rankings().matches();
    if (!shared_->busy && (!begun_ || matches != begun_at_) && matches > 0) {
        auto* job = new Job;
        job->rankings = roster.rankings();
        job->entries = roster.entry_ids();
        job->request.data = job;
        auto shared = shared_;
        job->done = [shared](Job& done) {
            shared->fit = std::move(done.fit);
            shared->busy = false;
        };
        const int queued = uv_queue_work(
            loop_, &job->request,
            [](uv_work_t* request) {
                Job& j = *static_cast<Job*>(request->data);
                j.fit = fit_of(j.rankings, j.entries);
            },
            [](uv_work_t* request, int) {
                std::unique_ptr<Job> j(static_cast<Job*>(request->data));
                j->done(*j);
            });
        if (queued == 0) {
            shared_->busy = true;
            begun_ = true;
            begun_at_ = matches;
        } else {
            delete job;
        }
    }
    return shared_->fit;
}

}  // namespace bg::arena
