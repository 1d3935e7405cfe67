//! What every endpoint shares ([`Services`], one app-data value: the
//! server's limits, the slots for searches and heavy work, the AI answer
//! cache and its shared tier, the quotas, the metrics) and how heavy work
//! runs off the HTTP workers and stops when its client goes away
//! ([`run_stoppable`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use crate::api::transport::json::ReadJson;
use crate::api::transport::problem::{HttpError, RequestError};
use crate::api::transport::request_id::Asked;
use crate::api::transport::schema::BatchItems;
use crate::cache::{AnswerCache, SharedTier};
use crate::fair_use::{FairUse, FairUseConfig};
use crate::i18n::Lang;
use crate::limits::Limits;
use crate::memory::InFlight;
use crate::metrics::Metrics;
use crate::operations::{Operation, Pool};
use crate::slots::SearchSlots;

/// What every endpoint shares.
#[derive(Clone)]
pub struct Services {
    /// The server's limits.
    pub limits: Limits,
    /// The pools of slots: live play, long work, large replays
    /// ([`Services::slots_of`] an operation).
    pub live: SearchSlots,
    pub long: SearchSlots,
    pub work: SearchSlots,
    pub cache: AnswerCache,
    /// The optional shared tier (Redis) behind `cache`.
    pub shared: Option<SharedTier>,
    /// Quotas per client.
    pub fair_use: Arc<FairUse>,
    pub metrics: Metrics,
    /// The schemas a batch's items are checked against (from the
    /// document; none in an application built without it).
    pub batch_items: BatchItems,
    /// The bytes requests hold in flight: bodies being read, answers
    /// being written and waiting to be sent.
    pub in_flight: InFlight,
}

/// A game endpoint's request as its handler takes it: the JSON body (read
/// as [`ReadJson`] reads it, within the services' limits) and the
/// [`Services`]. One extractor rather than a pair of them, as every
/// game request makes one.
pub struct JsonAndServices<T> {
    pub body: T,
    pub services: web::Data<Services>,
    /// The language the request asked for, its answer's texts' language.
    pub lang: Lang,
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonAndServices<T> {
    type Error = HttpError;
    type Future = ReadJsonAndServices<T>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> ReadJsonAndServices<T> {
        let services = req.app_data::<web::Data<Services>>();
        ReadJsonAndServices(services.map(|services| {
            let body = ReadJson::new(req, payload, &services.limits, &services.in_flight);
            (body, services.clone(), Asked::lang_of(req))
        }))
    }
}

/// [`JsonAndServices`]'s future: `None` in an app without [`Services`].
pub struct ReadJsonAndServices<T>(Option<(ReadJson<T>, web::Data<Services>, Lang)>);

impl<T: DeserializeOwned> Future for ReadJsonAndServices<T> {
    type Output = Result<JsonAndServices<T>, HttpError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let missing = || RequestError::Internal("the app serves no Services".to_owned()).into();
        let Some((body, ..)) = self.0.as_mut() else {
            return Poll::Ready(Err(missing()));
        };
        let body = std::task::ready!(Pin::new(body).poll(cx))?;
        Poll::Ready(match self.0.take() {
            Some((_, services, lang)) => Ok(JsonAndServices {
                body,
                services,
                lang,
            }),
            None => Err(missing()),
        })
    }
}

impl Services {
    /// The services within `limits`, with `cache` (reporting to `metrics`
    /// as the services do) and no quotas.
    pub fn new(limits: Limits, cache: AnswerCache, metrics: Metrics) -> Services {
        let slots = |pool: Pool, slots: usize| SearchSlots::new(pool, slots).with_metrics(&metrics);
        Services {
            limits,
            live: slots(Pool::Live, limits.max_concurrent_searches),
            long: slots(Pool::Long, limits.max_concurrent_reviews),
            work: slots(Pool::Work, Limits::default_concurrent_searches()),
            cache: cache.with_metrics(metrics.clone()),
            shared: None,
            fair_use: Arc::new(FairUse::new(FairUseConfig::default())),
            metrics,
            batch_items: BatchItems::default(),
            in_flight: InFlight::new(InFlight::DEFAULT_BYTES),
        }
    }

    /// The slots of the pool `op` runs in ([`Operation::pool`]); an
    /// operation that runs on the HTTP workers takes none, and asks
    /// for the work pool's if it ever does.
    pub fn slots_of(&self, op: Operation) -> &SearchSlots {
        match op.pool() {
            Some(Pool::Live) => &self.live,
            Some(Pool::Long) => &self.long,
            Some(Pool::Work) | None => &self.work,
        }
    }
}

/// Raises its flag when dropped: the future that owns it was completed or
/// abandoned (its client went away).
pub struct RaiseOnDrop(pub Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on the blocking pool in one of `slots`, handing it a stop
/// flag that is raised when the calling future is dropped (the client went
/// away) or at `deadline`. Answers `work`'s result and whether the flag
/// was raised before it ended (its result is then partial).
pub async fn run_stoppable<T: Send + 'static>(
    slots: &SearchSlots,
    limits: &Limits,
    deadline: Option<Instant>,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<(T, bool), RequestError> {
    let slot = slots.take_within(limits).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _raise_when_abandoned = RaiseOnDrop(stop.clone());
    let flag = stop.clone();
    let task = web::block(move || {
        let _slot = slot;
        let result = work(&flag);
        (result, flag.load(Ordering::Relaxed))
    });
    let finished = match deadline {
        None => task.await,
        Some(deadline) => {
            let mut task = std::pin::pin!(task);
            let timer = std::pin::pin!(tokio::time::sleep_until(deadline.into()));
            match futures_util::future::select(task.as_mut(), timer).await {
                futures_util::future::Either::Left((finished, _)) => finished,
                futures_util::future::Either::Right(((), _)) => {
                    stop.store(true, Ordering::Relaxed);
                    task.await
                }
            }
        }
    };
    finished.map_err(|e| RequestError::Internal(format!("search worker failed: {e}")))
}
