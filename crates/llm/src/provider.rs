//! Providers: an OpenAI-compatible chat-completions endpoint, or a command
//! that reads the prompt on stdin and prints its answer.

use crate::config::ProviderConfig;
use crate::error::Error;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A model's raw answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The text (expected to hold JSON).
    pub text: String,
    /// Tokens the provider says the call used.
    pub tokens: Option<u64>,
}

/// Something that answers prompts.
pub trait Provider: Send + Sync {
    /// The configured name (`local`).
    fn name(&self) -> &str;
    /// The model (`qwen2.5-coder`).
    fn model(&self) -> &str;
    /// One call: a system message and a user prompt.
    fn complete(&self, system: &str, prompt: &str, timeout: Duration) -> Result<Completion, Error>;
}

/// The provider a configuration describes.
pub fn build(name: &str, config: &ProviderConfig) -> Result<Box<dyn Provider>, Error> {
    Ok(match config {
        ProviderConfig::OpenAi {
            base_url,
            model,
            api_key_env,
            max_tokens,
            json_mode,
        } => {
            let api_key = match api_key_env {
                Some(var) => Some(std::env::var(var).map_err(|_| Error::MissingKey {
                    provider: name.to_string(),
                    var: var.clone(),
                })?),
                None => None,
            };
            Box::new(OpenAi {
                name: name.to_string(),
                url: format!("{}/chat/completions", base_url.trim_end_matches('/')),
                model: model.clone(),
                api_key,
                max_tokens: *max_tokens,
                json_mode: *json_mode,
            })
        }
        ProviderConfig::Command { command, model } => Box::new(Subprocess {
            name: name.to_string(),
            command: command.clone(),
            model: model.clone(),
        }),
    })
}

/// An OpenAI-compatible chat-completions endpoint.
pub struct OpenAi {
    name: String,
    url: String,
    model: String,
    api_key: Option<String>,
    max_tokens: Option<u32>,
    json_mode: bool,
}

fn excerpt(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl Provider for OpenAi {
    fn name(&self) -> &str {
        &self.name
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, system: &str, prompt: &str, timeout: Duration) -> Result<Completion, Error> {
        let mut body = serde_json::json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
        });
        if self.json_mode {
            body["response_format"] = serde_json::json!({"type": "json_object"});
        }
        if let Some(m) = self.max_tokens {
            body["max_tokens"] = m.into();
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let mut req = agent
            .post(&self.url)
            .header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            req = req.header("Authorization", &format!("Bearer {key}"));
        }
        let mut resp = req.send(body.to_string()).map_err(|e| match e {
            ureq::Error::Timeout(_) => Error::Timeout(timeout.as_secs()),
            e => Error::Failed(format!("{}: {e}", self.url)),
        })?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = resp.body_mut().read_to_string().map_err(|e| match e {
            ureq::Error::Timeout(_) => Error::Timeout(timeout.as_secs()),
            e => Error::Failed(format!("{}: reading the answer: {e}", self.url)),
        })?;
        match status {
            200 => {}
            429 => return Err(Error::RateLimited { retry_after }),
            s => {
                return Err(Error::Status {
                    status: s,
                    body: excerpt(&text),
                })
            }
        }
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::Failed(format!("{}: answer is not JSON: {e}", self.url)))?;
        let message = &v["choices"][0]["message"];
        if let Some(refusal) = message["refusal"].as_str() {
            return Err(Error::Refused(excerpt(refusal)));
        }
        let content = message["content"]
            .as_str()
            .ok_or_else(|| Error::Failed(format!("{}: no choices[0].message.content", self.url)))?;
        Ok(Completion {
            text: content.to_string(),
            tokens: v["usage"]["total_tokens"].as_u64(),
        })
    }
}

/// A command that reads the prompt on stdin and prints its answer
/// (agent command-line tools in print mode).
pub struct Subprocess {
    name: String,
    command: Vec<String>,
    model: String,
}

/// Exit status a command uses to say "rate limited, try later".
const EX_TEMPFAIL: i32 = 75;

impl Provider for Subprocess {
    fn name(&self) -> &str {
        &self.name
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn complete(&self, system: &str, prompt: &str, timeout: Duration) -> Result<Completion, Error> {
        let program = &self.command[0];
        let mut cmd = Command::new(program);
        // Its own process group, so a timeout kills what it started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Failed(format!("cannot start {program}: {e}")))?;
        let input = format!("{system}\n\n{prompt}");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        // Writing, reading and waiting happen at once: a command that
        // writes before it has read everything must not deadlock us.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() >= timeout => {
                    // The whole group: a shell's children hold the pipes
                    // too. (Not through kill(1): procps-ng 4.0.2 reads
                    // `kill -KILL -PID` as "every process".)
                    #[cfg(unix)]
                    if let Ok(pid) = i32::try_from(child.id()) {
                        let _ = nix::sys::signal::killpg(
                            nix::unistd::Pid::from_raw(pid),
                            nix::sys::signal::Signal::SIGKILL,
                        );
                    }
                    let _ = child.kill();
                    let _ = child.wait();
                    // The pipes close with the process; the threads end.
                    return Err(Error::Timeout(timeout.as_secs()));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(Error::Failed(format!("{program}: {e}"))),
            }
        };
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        let err = err_reader.join().unwrap_or_default();
        match status.code() {
            Some(0) => Ok(Completion {
                text: out,
                tokens: None,
            }),
            Some(EX_TEMPFAIL) => Err(Error::RateLimited { retry_after: None }),
            code => Err(Error::Failed(format!(
                "{program} exited with {}: {}",
                code.map_or("a signal".to_string(), |c| format!("status {c}")),
                excerpt(&err)
            ))),
        }
    }
}
