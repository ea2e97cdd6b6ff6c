use super::*;
use serde_json::json;

fn read(text: &str) -> Result<ClientMessage, ApiError> {
    read_client_message(text).1
}

#[test]
fn choices_read_their_names_and_keep_the_ones_they_do_not_know() {
    let message = read(r#"{"t":"create","opponent":"open","color":"","variant":"Russian"}"#).unwrap();
    let ClientMessage::Create { variant, opponent, color, .. } = message else { panic!("{message:?}") };
    assert_eq!(
        variant,
        Some(Choice::Known(VariantName(GameVariant::Eight(checkers_rules::Variant::Russian))))
    );
    assert_eq!(opponent, Choice::Known(OpponentKind::Open));
    assert_eq!(color.map(|c| c.known().map(ColorChoice::color)), Some(Ok(None)));
    let message = read(r#"{"t":"draw","game":"g","token":"t","action":"maybe"}"#).unwrap();
    let ClientMessage::Draw { action, .. } = message else { panic!("{message:?}") };
    let refusal = action.known().unwrap_err();
    assert_eq!(
        (refusal.code, refusal.message.as_str()),
        (ErrorCode::BadRequest, "draw action `maybe` is not offer, accept or decline")
    );
}

#[test]
fn request_ids_are_echoed_when_numbers_or_short_strings() {
    assert_eq!(read_client_message(r#"{"t":"ping","id":7}"#).0, json!(7));
    assert_eq!(read_client_message(r#"{"t":"fly","id":"x"}"#).0, json!("x"));
    for bad in [r#"{"a":1}"#, "9007199254740992", "-9007199254740992", "2.5", "1e3", "true"] {
        let (re, message) = read_client_message(&format!(r#"{{"t":"ping","id":{bad}}}"#));
        assert_eq!((re, message.err().map(|e| e.code)), (Value::Null, Some(ErrorCode::BadRequest)), "{bad}");
    }
}

#[test]
fn the_id_of_a_message_not_read_whole_is_found_near_its_start() {
    let pad = "x".repeat(5000);
    assert_eq!(peek_request_id(&format!(r#"{{"id":"a\u00e9","pad":"{pad}"}}"#)), json!("aé"));
    assert_eq!(
        peek_request_id(&format!(r#"{{"t":"ping","n":[1,{{"id":2}}],"id":3,"pad":"{pad}"}}"#)),
        json!(3)
    );
    assert_eq!(peek_request_id(&format!(r#"{{"pad":"{pad}","id":3}}"#)), Value::Null);
    assert_eq!(peek_request_id(r#"{"id":1.5}"#), Value::Null);
    assert_eq!(peek_request_id(r#"[{"id":1}]"#), Value::Null);
    assert_eq!(peek_request_id(&format!("{{\"id\":\"{}\"", "é".repeat(3000))), Value::Null);
}

#[test]
fn messages_other_than_state_keep_their_keys_in_alphabetical_order() {
    let re = json!(3);
    let seated = ServerMessage::Seated { re: &re, game: "g", color: "white", token: "k", invite: None };
    assert_eq!(seated.to_text(), r#"{"color":"white","game":"g","re":3,"t":"seated","token":"k"}"#);
    assert_eq!(ServerMessage::Ok { re: &re, ply: None }.to_text(), r#"{"re":3,"t":"ok"}"#);
    let lobby = Listing::<LobbyEntry>::new(Vec::new());
    assert_eq!(
        (lobby.pushed.as_str(), lobby.reply(&re).as_str()),
        (r#"{"games":[],"t":"lobby"}"#, r#"{"games":[],"re":3,"t":"lobby"}"#)
    );
}
